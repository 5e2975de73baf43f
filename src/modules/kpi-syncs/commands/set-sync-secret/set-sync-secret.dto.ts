import { Allow } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

export class SetSyncSecretDto {
  /** The secret's name, as referenced by `secretRef` (a letter, then letters, digits or _; at most 64) */
  @Alias('secretRef', 'secret_ref') name?: string;
  /** The value (1..4096 printable ASCII characters), or null to remove it. Write-only: never returned */
  @Allow() value?: string | null;
}
