import { QueryFailedError } from 'typeorm';

/** Whether `e` is PostgreSQL's unique violation (23505) of `constraint` (any unique constraint when omitted). */
export function isUniqueViolation(e: unknown, constraint?: string): boolean {
  if (!(e instanceof QueryFailedError)) return false;
  const d = e.driverError as { code?: string; constraint?: string } | undefined;
  return d?.code === '23505' && (constraint === undefined || d.constraint === constraint);
}
