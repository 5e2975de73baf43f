import type { Actor } from '../../../../common/auth/principal';
import type { RecordSnapshotDto } from './record-snapshot.dto';

export class RecordSnapshotCommand {
  constructor(
    readonly actor: Actor,
    readonly kpiId: string,
    readonly dto: RecordSnapshotDto,
  ) {}
}
