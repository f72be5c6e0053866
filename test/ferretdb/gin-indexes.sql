-- Makes FerretDB 1.x use the indexes we declare, as MongoDB does. Applied by scripts/services.sh to the PostgreSQL
-- database behind the test FerretDB; semantics are unchanged, only lookups stop being table scans.
--
-- FerretDB filters with jsonb containment and the field name as a bind parameter (_jsonb->$1 @> $2). The btree
-- indexes it creates for our MongoDB indexes cannot serve that, so every lookup scanned its table. Two settings fix
-- it: for each btree index FerretDB creates, a GIN index on its leading field (containment can use GIN), and
-- custom plans, so that PostgreSQL plans with the actual field name and can match those expression indexes.
-- Only the leading field: on a field with few values (a merchant id shared by every row) a GIN index makes the
-- planner walk one posting list as long as the table. Our indexes lead with their selective field (lib/mongo.ts).
CREATE OR REPLACE FUNCTION bnpl_ferretdb_gin() RETURNS event_trigger LANGUAGE plpgsql AS $$
DECLARE
  obj record;
  def text;
  tbl text;
  field text;
BEGIN
  FOR obj IN SELECT * FROM pg_event_trigger_ddl_commands() WHERE command_tag = 'CREATE INDEX' LOOP
    SELECT pg_get_indexdef(obj.objid), i.indrelid::regclass::text INTO def, tbl FROM pg_index i WHERE i.indexrelid = obj.objid;
    IF def IS NULL OR def NOT LIKE '%USING btree%' OR def NOT LIKE '%_jsonb ->%' THEN CONTINUE; END IF;
    field := substring(def FROM '_jsonb -> ''([A-Za-z0-9_]+)''::text');
    -- merchant_id leads the list indexes but is shared by every row of a test database: a GIN index on it would
    -- tempt the planner to AND its table-long posting list into every lookup by id.
    IF field IS NULL OR field = 'merchant_id' THEN CONTINUE; END IF;
    -- fastupdate off: otherwise new entries wait in a pending list that every lookup reads in full until a vacuum,
    -- and lookups slow down as inserts pile up.
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %s USING gin ((_jsonb -> %L)) WITH (fastupdate = off)',
      left(md5(tbl || '.' || field), 20) || '_gin', tbl, field);
  END LOOP;
END $$;
DROP EVENT TRIGGER IF EXISTS bnpl_ferretdb_gin;
CREATE EVENT TRIGGER bnpl_ferretdb_gin ON ddl_command_end WHEN TAG IN ('CREATE INDEX') EXECUTE FUNCTION bnpl_ferretdb_gin();
-- FerretDB may run its sessions as replicas; the trigger must fire for them too.
ALTER EVENT TRIGGER bnpl_ferretdb_gin ENABLE ALWAYS;
