import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Errors } from '../errors/domain-error';

/**
 * Text the service can store and echo: well-formed Unicode (no unpaired surrogate, which
 * PostgreSQL would store as U+FFFD or refuse inside JSON) without NUL (which PostgreSQL text
 * cannot hold). Checked once per request, for every string of the JSON body (values and property
 * names, at any depth), every query value and every path value, before guards, pipes and
 * handlers run; a failure is a 400 `validation_failed` naming the field.
 */
export function textProblem(s: string): string | null {
  if (s.includes('\u0000')) return 'must not contain NUL characters';
  if (!s.isWellFormed()) return 'must be well-formed Unicode text (it contains an unpaired surrogate)';
  return null;
}

interface Frame {
  value: unknown;
  key: string | number | null;
  parent: Frame | null;
}

/** `issues[0].title`-style name of a value under `root` (built only for the message; the body's root is ''). */
function nameOf(frame: Frame, root: string): string {
  const keys: Array<string | number> = [];
  for (let f: Frame | null = frame; f && f.key !== null; f = f.parent) keys.unshift(f.key);
  return keys.reduce<string>((name, k) => (typeof k === 'number' ? `${name}[${k}]` : name ? `${name}.${k}` : k), root) || 'body';
}

/** The first string of a JSON value that is not acceptable text (walked iteratively: depth is not bounded here). */
function checkValue(root: unknown, rootName: string): void {
  const stack: Frame[] = [{ value: root, key: null, parent: null }];
  while (stack.length) {
    const frame = stack.pop()!;
    const v = frame.value;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) throw Errors.validation(`${nameOf(frame, rootName)} ${problem}`);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: frame });
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      // (a Buffer is the unparsed body of a raw-body route: its handler checks what it parses)
      for (const [k, child] of Object.entries(v)) {
        const problem = textProblem(k);
        if (problem) throw Errors.validation(`A property name in ${nameOf(frame, rootName)} ${problem}`);
        stack.push({ value: child, key: k, parent: frame });
      }
    }
  }
}

/** Query and path values are strings (or arrays of strings for repeated query keys), named by their key. */
function checkBag(bag: unknown): void {
  if (bag === null || typeof bag !== 'object') return;
  for (const [k, v] of Object.entries(bag)) {
    const problem = textProblem(k);
    if (problem) throw Errors.validation(`A parameter name ${problem}`);
    checkValue(v, k);
  }
}

/** Refuses a request whose path values, query values or JSON body hold text the service cannot keep. */
export function assertWellFormedInput(req: Pick<FastifyRequest, 'params' | 'query' | 'body'>): void {
  checkBag(req.params);
  checkBag(req.query);
  checkValue(req.body, '');
}

/** Registers the check for every route (after body parsing, before the route's guards and pipes). */
export function registerWellFormedInput(fastify: FastifyInstance): void {
  fastify.addHook('preValidation', async (req) => assertWellFormedInput(req));
}
