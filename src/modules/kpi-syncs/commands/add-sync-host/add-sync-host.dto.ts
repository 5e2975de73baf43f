import { Alias } from '../../../../common/http/aliases';

export class AddSyncHostDto {
  /** An exact DNS hostname, e.g. `metrics.example.com`: no scheme, port, path, wildcard, IP address, localhost or .local */
  @Alias('hostname') host?: string;
}
