import { Alias } from '../../../../common/http/aliases';

export class RunSyncNowDto {
  /** true: write an api_poll snapshot on success (published syncs only); default false = preview */
  @Alias('confirmSnapshotWrite') confirm_snapshot_write?: boolean;
}
