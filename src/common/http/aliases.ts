import { getMetadataStorage, ValidateBy } from 'class-validator';

/**
 * Accepted alternative names of request fields, declared once on the DTO's canonical property and
 * mapped to it by the global validation pipe before validation. The declaration is class-validator
 * metadata (a check that always passes), so `PartialType`, `PickType` and `OmitType` carry it over
 * like any other rule, and it whitelists the property like `@Allow()`.
 */

const ALIAS = 'requestAlias';

type Class = abstract new (...args: never[]) => unknown;

interface AliasSpec {
  /** Alternative names, in the order they are tried after the canonical name. */
  names: string[];
  /** Class whose own aliases apply inside this property's value (an object or an array of objects). */
  nested?: () => Class;
}

function declare(spec: AliasSpec): PropertyDecorator {
  return ValidateBy({ name: ALIAS, constraints: [spec], validator: { validate: () => true } });
}

/** `@Alias('project_id')`: the property is also accepted under these names (same value rules). */
export function Alias(...names: string[]): PropertyDecorator {
  return declare({ names });
}

/** The property's value (an object or array of objects) has aliases of its own, declared on `type`. */
export function AliasesIn(type: () => Class, ...names: string[]): PropertyDecorator {
  return declare({ names, nested: type });
}

const cache = new WeakMap<Class, Map<string, AliasSpec>>();

/** Canonical property → its aliases (own and inherited, mapped types included). */
export function aliasesOf(type: Class): Map<string, AliasSpec> {
  let map = cache.get(type);
  if (map) return map;
  map = new Map();
  for (const m of getMetadataStorage().getTargetValidationMetadatas(type as never, '', true, false)) {
    if (m.name !== ALIAS) continue;
    const spec = m.constraints[0] as AliasSpec;
    const prev = map.get(m.propertyName);
    map.set(m.propertyName, { names: [...new Set([...(prev?.names ?? []), ...spec.names])], nested: spec.nested ?? prev?.nested });
  }
  cache.set(type, map);
  return map;
}

/** One validation problem: the field as the client sent it (`issues[0].title` style path, `null` for the body as a whole) and what is wrong. */
export interface FieldProblem {
  field: string | null;
  message: string;
}

/** Names the client used, per normalized object: canonical property → name sent. */
export type SentNames = WeakMap<object, Map<string, string>>;

export interface Normalized {
  value: unknown;
  sent: SentNames;
  /** Alias conflicts (an alias and its canonical name, or two aliases, with different values). */
  problems: FieldProblem[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * Renames accepted aliases of `type` (and of its nested declarations) to the canonical names, in a
 * copy of `value`. Sending a name and its alias with the same value is accepted; different values
 * are a problem naming both as sent.
 */
export function normalizeAliases(value: unknown, type: Class): Normalized {
  const sent: SentNames = new WeakMap();
  const problems: FieldProblem[] = [];
  const walk = (v: unknown, t: Class, path: string): unknown => {
    if (Array.isArray(v)) return v.map((item, i) => walk(item, t, `${path}[${i}]`));
    if (!isObject(v)) return v;
    const specs = aliasesOf(t);
    if (specs.size === 0) return v;
    const out: Record<string, unknown> = { ...v };
    const names = new Map<string, string>();
    const at = (n: string) => (path ? `${path}.${n}` : n);
    for (const [canonical, spec] of specs) {
      let found: string | undefined;
      for (const n of [canonical, ...spec.names]) {
        if (!Object.hasOwn(v, n) || v[n] === undefined) continue;
        if (found === undefined) found = n;
        else if (!same(v[found], v[n])) problems.push({ field: at(found), message: `${at(found)} and ${at(n)} disagree; send one of them` });
        if (n !== canonical) delete out[n];
      }
      if (found === undefined) continue;
      const sentName = found;
      out[canonical] = spec.nested ? walk(v[sentName], spec.nested(), at(sentName)) : v[sentName];
      if (sentName !== canonical) names.set(canonical, sentName);
    }
    if (names.size) sent.set(out, names);
    return out;
  };
  return { value: walk(value, type, ''), sent, problems };
}
