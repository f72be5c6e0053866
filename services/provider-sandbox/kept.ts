// What a provider's state.load (provider.ts) reads back from SANDBOX_STATE_FILE. The file is the sandbox's own
// save(), so a record is checked for its key only; a part missing or of an older shape starts empty instead of failing
// the sandbox's start.
import { z } from 'zod';
import { MAGIC_TAGS, type MagicTag } from './magic.ts';

/** A saved provider state: any of its parts missing or unreadable is empty (a missing file: all of them). */
export const keptState = <S extends z.ZodRawShape>(shape: S) => z.preprocess((v) => (typeof v === 'object' && v !== null ? v : {}), z.object(shape));

/** A saved list of T, each kept when it has its key (a string or a number); none saved: []. */
export const records = <T>(key: string) => {
  const hasKey = z.looseObject({ [key]: z.union([z.string(), z.number()]) });
  return z.array(z.custom<T>((v) => hasKey.safeParse(v).success)).catch([]);
};

/** A saved counter (a sequence number); none saved: undefined, so the provider keeps its own start. */
export const counter = z.number().int().optional().catch(undefined);

/** Magic tags saved as a list; unknown ones dropped. */
export const tagSet = (v: unknown): Set<MagicTag> =>
  new Set(
    z
      .array(z.string())
      .catch([])
      .parse(v)
      .flatMap((t) => MAGIC_TAGS.filter((m) => m === t)),
  );

/** A saved signing key (base64); none saved: undefined, so the issuer keeps its own. */
export const savedKey = z.string().min(1).optional().catch(undefined);
