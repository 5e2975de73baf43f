// Jest's node environment, plus a guard against statements sent concurrently on one database
// connection: node-postgres warns "Calling client.query() when the client is already executing a
// query" (a DeprecationWarning; pg 9 refuses such a query). Warnings are emitted on the real
// process, which the tests' sandboxed `process` does not see, so the environment listens there and
// hands what it saw to test/support/no-concurrent-queries.ts, which fails the test that caused it.
// Each worker has its own database (see the constructor), and each test file gets its own Bull key
// prefix: the run's prefix (global-setup.ts) plus a digest of the file's path. Workers started by
// other files running at the same time would otherwise take this file's jobs (a webhook delivery
// sent by a worker whose egress rules or clock differ).
const { createHash } = require('node:crypto');
const { relative } = require('node:path');
const { TestEnvironment } = require('jest-environment-node');

const CONCURRENT_QUERY = /client\.query\(\) when the client is already executing a query/;

class ServiceTestEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    /** Stacks of the warnings seen since the last check (drained by no-concurrent-queries.ts). */
    this.concurrentQueries = [];
    this.global.__concurrentQueries = this.concurrentQueries;
    const file = createHash('sha256').update(relative(config.projectConfig.rootDir, context.testPath)).digest('hex').slice(0, 10);
    this.global.process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'test'}-${file}`;
    // the worker's own database (global-setup.ts made one per worker): files that run at the same
    // time never share one. JEST_WORKER_ID is 1..maxWorkers, kept when a worker is replaced.
    const names = (process.env.TEST_DATABASE_NAMES ?? '').split(',').filter(Boolean);
    if (names.length && process.env.DATABASE_URL) {
      const url = new URL(process.env.DATABASE_URL);
      url.pathname = `/${names[(Math.max(1, Number(process.env.JEST_WORKER_ID) || 1) - 1) % names.length]}`;
      this.global.process.env.DATABASE_URL = url.toString();
    }
    this.onWarning = (w) => {
      if (w && w.name === 'DeprecationWarning' && CONCURRENT_QUERY.test(String(w.message))) this.concurrentQueries.push(String(w.stack ?? w.message));
    };
  }

  async setup() {
    await super.setup();
    process.on('warning', this.onWarning);
  }

  async teardown() {
    process.off('warning', this.onWarning);
    await super.teardown();
  }
}

module.exports = ServiceTestEnvironment;
