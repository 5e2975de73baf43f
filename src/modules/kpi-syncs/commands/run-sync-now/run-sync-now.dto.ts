import { Allow } from 'class-validator';

export class RunSyncNowDto {
  /** true: write an api_poll snapshot on success (published syncs only); default false = preview */
  @Allow() confirm_snapshot_write?: boolean;
  /** Alias of confirm_snapshot_write */
  @Allow() confirmSnapshotWrite?: boolean;
}
