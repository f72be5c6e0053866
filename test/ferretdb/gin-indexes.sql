-- Makes FerretDB 1.x use the indexes we declare, as MongoDB does. Applied by scripts/services.sh to the PostgreSQL
-- database behind the test FerretDB; semantics are unchanged, only lookups stop being table scans.
--
-- FerretDB filters with jsonb containment and the field name as a bind parameter (_jsonb->$1 @> $2). The btree
-- indexes it creates for our MongoDB indexes cannot serve that, so every lookup scanned its table. Two settings fix
-- it: for each btree index FerretDB creates, a GIN index on each of its fields (containment can use GIN), and
-- custom plans, so that PostgreSQL plans with the actual field name and can match those expression indexes.
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
    FOR field IN SELECT m[1] FROM regexp_matches(def, '_jsonb -> ''([A-Za-z0-9_]+)''::text', 'g') AS m LOOP
      EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %s USING gin ((_jsonb -> %L))',
        left(md5(tbl || '.' || field), 20) || '_gin', tbl, field);
    END LOOP;
  END LOOP;
END $$;
DROP EVENT TRIGGER IF EXISTS bnpl_ferretdb_gin;
CREATE EVENT TRIGGER bnpl_ferretdb_gin ON ddl_command_end WHEN TAG IN ('CREATE INDEX') EXECUTE FUNCTION bnpl_ferretdb_gin();
-- FerretDB may run its sessions as replicas; the trigger must fire for them too.
ALTER EVENT TRIGGER bnpl_ferretdb_gin ENABLE ALWAYS;
