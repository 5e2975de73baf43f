import type { DecideConsentDto } from './decide-consent.dto';

/** POST /api/oauth/consent by the signed-in human `userId`. */
export class DecideConsentCommand {
  constructor(
    readonly userId: string,
    readonly dto: DecideConsentDto,
    readonly issuer: string,
  ) {}
}
