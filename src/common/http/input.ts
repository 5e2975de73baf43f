import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { isEmail, ValidateBy, ValidateIf } from 'class-validator';

/** Shared request-input helpers for DTOs. */

/** Validate only when the property is present; unlike `@IsOptional()`, `null` is validated (and refused). */
export const Present = () => ValidateIf((_o: object, value: unknown) => value !== undefined);

/** Trims a string before validation (other types pass through and fail `@IsString`). */
export const Trim = () => Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/** Trims and lowercases a string before validation. */
export const TrimLower = () => Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value));

/** Hex colour `#rrggbb`. */
export const HEX_COLOR_RE = /^#[0-9a-fA-F]{6}$/;

/** Descriptions: blank means none. */
export const cleanDescription = (d: string | null | undefined): string | null | undefined =>
  d === undefined ? undefined : d === null || d.trim() === '' ? null : d;

/**
 * An email address (class-validator's `isEmail`), safe for any input: validator.js measures the
 * local part with `encodeURI`, which throws on a lone surrogate, so text that is not well-formed
 * Unicode is refused before it gets there.
 */
export const IsEmailAddress = () =>
  applyDecorators(
    ApiProperty({ format: 'email' }),
    ValidateBy({
      name: 'isEmailAddress',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && value.isWellFormed() && isEmail(value),
        defaultMessage: () => '$property must be a valid email address',
      },
    }),
  );
