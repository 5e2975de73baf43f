import { Injectable } from '@nestjs/common';
import { Sql } from '../../database/sql.service';

/** The health check's statement. */
@Injectable()
export class OpsRepository {
  constructor(private readonly sql: Sql) {}

  /** Resolves when the database answers a trivial statement; rejects otherwise. */
  async ping(): Promise<void> {
    await this.sql.run('SELECT 1');
  }
}
