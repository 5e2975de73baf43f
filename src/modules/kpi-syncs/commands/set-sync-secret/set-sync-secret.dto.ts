import { Allow } from 'class-validator';

export class SetSyncSecretDto {
  /** The secret's name, as referenced by `secretRef` (a letter, then letters, digits or _; at most 64) */
  @Allow() name?: string;
  /** Alias of name */
  @Allow() secretRef?: string;
  /** Alias of name */
  @Allow() secret_ref?: string;
  /** The value (1..4096 printable ASCII characters), or null to remove it. Write-only: never returned */
  @Allow() value?: string | null;
}
