import { Transform } from 'class-transformer';

/** Shared request-input helpers for DTOs. */

/** Trims a string before validation (other types pass through and fail `@IsString`). */
export const Trim = () => Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/** Trims and lowercases a string before validation. */
export const TrimLower = () => Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value));

/** Hex colour `#rrggbb`. */
export const HEX_COLOR_RE = /^#[0-9a-fA-F]{6}$/;

/** Descriptions: blank means none. */
export const cleanDescription = (d: string | null | undefined): string | null | undefined =>
  d === undefined ? undefined : d === null || d.trim() === '' ? null : d;
