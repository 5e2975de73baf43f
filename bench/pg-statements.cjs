// Preload for bench/lease-probe.mjs: records every statement sent through pg's Client (text head and
// ms from send to answer); SIGWINCH (Nest's shutdown hooks take SIGUSR2) writes the records to PG_STATEMENTS_OUT and starts over.
const { Client } = require('pg');
const fs = require('node:fs');

let log = [];
const orig = Client.prototype.query;
Client.prototype.query = function (config, values, cb) {
  const text = typeof config === 'string' ? config : config && config.text;
  const t0 = performance.now();
  const done = () => log.push({ t: text, ms: performance.now() - t0 });
  if (typeof values === 'function') {
    const f = values;
    return orig.call(this, config, (e, r) => (done(), f(e, r)));
  }
  if (typeof cb === 'function') return orig.call(this, config, values, (e, r) => (done(), cb(e, r)));
  if (config && typeof config.callback === 'function') {
    const f = config.callback;
    config.callback = (e, r) => (done(), f(e, r));
    return orig.call(this, config, values);
  }
  const p = orig.call(this, config, values);
  if (p && typeof p.then === 'function') p.then(done, done);
  return p;
};
process.on('SIGWINCH', () => {
  // texts are shortened here, not per statement, to keep the recording cheap
  fs.writeFileSync(process.env.PG_STATEMENTS_OUT, JSON.stringify(log.map((s) => ({ t: String(s.t).replace(/\s+/g, ' ').slice(0, 150), ms: s.ms }))));
  log = [];
});
