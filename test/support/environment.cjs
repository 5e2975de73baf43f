// Jest's node environment, plus a guard against statements sent concurrently on one database
// connection: node-postgres warns "Calling client.query() when the client is already executing a
// query" (a DeprecationWarning; pg 9 refuses such a query). Warnings are emitted on the real
// process, which the tests' sandboxed `process` does not see, so the environment listens there and
// hands what it saw to test/support/no-concurrent-queries.ts, which fails the test that caused it.
const { TestEnvironment } = require('jest-environment-node');

const CONCURRENT_QUERY = /client\.query\(\) when the client is already executing a query/;

class ServiceTestEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    /** Stacks of the warnings seen since the last check (drained by no-concurrent-queries.ts). */
    this.concurrentQueries = [];
    this.global.__concurrentQueries = this.concurrentQueries;
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
