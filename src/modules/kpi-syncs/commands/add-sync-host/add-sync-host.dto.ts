import { Allow } from 'class-validator';

export class AddSyncHostDto {
  /** An exact DNS hostname, e.g. `metrics.example.com`: no scheme, port, path, wildcard, IP address, localhost or .local */
  @Allow() host?: string;
  /** Alias of host */
  @Allow() hostname?: string;
}
