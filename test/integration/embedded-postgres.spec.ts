import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { Watchdog } from '../../src/process/watchdog-handle';

const asRoot = process.getuid?.() === 0;

describe('embedded PostgreSQL data directory', () => {
  (asRoot ? it : it.skip)('as root, a DATA_DIR the postgres user cannot reach is refused with a clear message (before initdb)', async () => {
    const privateParent = mkdtempSync(join(tmpdir(), 'private-')); // mkdtemp makes 0700 folders
    try {
      await expect(
        startEmbeddedPostgres({ dataDir: join(privateParent, 'data'), port: 54999, watchdog: new Watchdog(() => undefined), log: () => undefined }),
      ).rejects.toThrow(/not traversable by other users.*chmod o\+x/s);
    } finally {
      rmSync(privateParent, { recursive: true, force: true });
    }
  });
});
