import { applyDecorators } from '@nestjs/common';
import { ArrayMaxSize, ArrayNotEmpty, ArrayUnique, IsArray, IsUUID, ValidateBy } from 'class-validator';
import { Errors } from '../../common/errors/domain-error';
import { isUuid } from '../../common/http/validation';

export { Present, Trim } from '../../common/http/input';

/** The property must not be sent at all: declared on the DTO only to refuse it with a clear 400. */
export const Rejected = (message: string) =>
  ValidateBy({ name: 'rejected', validator: { validate: (value: unknown) => value === undefined, defaultMessage: () => message } });

/**
 * A UUID from the query string under any of its alias names (camelCase first). Missing: undefined,
 * or a 400 when `required`; repeated, conflicting or not a UUID: 400.
 */
export function queryUuid(query: Record<string, unknown>, names: string[], required: true): string;
export function queryUuid(query: Record<string, unknown>, names: string[], required?: false): string | undefined;
export function queryUuid(query: Record<string, unknown>, names: string[], required = false): string | undefined {
  let found: string | undefined;
  for (const n of names) {
    const v = query[n];
    if (v === undefined) continue;
    if (typeof v !== 'string') throw Errors.validation(`${n} must be given once`);
    if (found !== undefined && found.toLowerCase() !== v.toLowerCase()) throw Errors.validation(`${names[0]} is given twice with different values`);
    found = v;
  }
  if (found === undefined || found === '') {
    if (required) throw Errors.validation(`${names[0]} query parameter is required`);
    return undefined;
  }
  if (!isUuid(found)) throw Errors.validation(`${names[0]} must be a UUID`);
  return found.toLowerCase();
}

/** A board view's columns: a non-empty array of distinct column UUIDs (at most 200), named `field` in messages. */
export const ColumnIdList = (field: string) =>
  applyDecorators(
    IsArray({ message: `${field} must be an array of column ids` }),
    ArrayNotEmpty({ message: `${field} must not be empty` }),
    ArrayMaxSize(200),
    ArrayUnique((id: unknown) => (typeof id === 'string' ? id.toLowerCase() : id), { message: `${field} must not contain duplicates` }),
    IsUUID('all', { each: true, message: `${field} must contain column UUIDs` }),
  );
