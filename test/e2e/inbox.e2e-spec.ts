import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { DownloadSigner } from '../../src/modules/inbox/download-signer';
import { startTestApp, type TestApp } from '../support/app';
import { bearer, newAgent, newOrg, newProject, type TestOrg } from '../support/factories';
import { sameBytesSpellings } from '../support/base64url';
import { insertIssue } from '../support/issues';

/**
 * The private inbox over HTTP: the Standard Webhooks-signed intake (published vector, 256 KiB
 * boundary, replays), mailbox matching, sanitized HTML, private attachments with size limits, the
 * operator allowlist (403 for other members, 404 across organizations), triage with audit actions,
 * and 60-second signed download URLs served by the service (expired or altered URLs refused).
 * The mailboxes and operators are configuration, so the organizations are made by a first app and
 * the inbox is exercised by a second one on the same database.
 */
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const hook = new Webhook(SECRET);

describe('private inbox', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let op: { memberId: string; key: string };
  let otherOp: { memberId: string; key: string };
  let plain: { memberId: string; key: string };
  let ownerKey: string;
  let projectId: string;
  const box = `support-${randomBytes(3).toString('hex')}@inbox.example`;
  const alias = `hello-${randomBytes(3).toString('hex')}@inbox.example`;
  const otherBox = `b-${randomBytes(3).toString('hex')}@inbox.example`;

  beforeAll(async () => {
    const first = await startTestApp();
    try {
      org = await newOrg(first);
      other = await newOrg(first);
      op = await newAgent(first, org, { role: 'admin' });
      plain = await newAgent(first, org, { role: 'admin' });
      otherOp = await newAgent(first, other, { role: 'admin' });
      ownerKey = (await newAgent(first, org, { role: 'member' })).key;
      projectId = (await newProject(first, org)).id;
      // intake is off without a secret: 404
      const res = await first.http().post('/api/webhooks/resend/inbound').set('content-type', 'application/json').send('{}').expect(404);
      expect(res.body.error).toBe('not_found');
    } finally {
      await first.close();
    }
    t = await startTestApp({
      RESEND_WEBHOOK_SECRET: SECRET,
      INBOX_MAILBOXES: `${box}=${org.id},${alias}=${org.id},${otherBox}=${other.id}`,
      INBOX_OPERATOR_MEMBER_IDS: `${op.memberId},${otherOp.memberId}`,
    });
  });
  afterAll(() => t.close());

  const asOp = () => bearer(t, op.key);
  const inbox = (orgId = org.id) => `/api/orgs/${orgId}/inbox`;

  const emailEvent = (data: Record<string, unknown> = {}) =>
    JSON.stringify({
      type: 'email.received',
      created_at: new Date().toISOString(),
      data: {
        email_id: `em_${randomBytes(8).toString('hex')}`,
        created_at: new Date().toISOString(),
        from: 'Alice Sender <alice@example.net>',
        to: [box],
        cc: [],
        bcc: [],
        subject: 'Help with my order',
        message_id: `<${randomUUID()}@example.net>`,
        text: 'Hello, I need help.',
        html: '<p>Hello <b>team</b></p><script>alert(1)</script><img src="https://tracker.example/p.gif"><a href="javascript:alert(2)" onclick="x()">link</a>',
        attachments: [],
        ...data,
      },
    });
  const deliver = (raw: string | Buffer, opts: { secret?: string; at?: Date; svix?: boolean; id?: string } = {}) => {
    const id = opts.id ?? `msg_${randomBytes(8).toString('hex')}`;
    const at = opts.at ?? new Date();
    const sig = new Webhook(opts.secret ?? SECRET).sign(id, at, raw);
    const p = opts.svix ? 'svix' : 'webhook';
    return t
      .http()
      .post('/api/webhooks/resend/inbound')
      .set('content-type', 'application/json')
      .set(`${p}-id`, id)
      .set(`${p}-timestamp`, String(Math.floor(at.getTime() / 1000)))
      .set(`${p}-signature`, sig)
      .send(raw);
  };
  const receive = async (data: Record<string, unknown> = {}) => {
    const res = await deliver(emailEvent(data)).expect(200);
    expect(res.body).toMatchObject({ accepted: true, duplicate: false, code: null });
    return res.body.email_id as string;
  };

  describe('intake', () => {
    it('the scheme is the published Standard Webhooks one (test vector of the specification)', () => {
      const vector = new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
      expect(vector.sign('msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(1614265330 * 1000), '{"test": 2432232314}')).toBe(
        'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
      );
    });

    it('wrong secret, stale timestamp, missing or altered signature: 401 invalid_signature, nothing stored', async () => {
      const raw = emailEvent();
      const stale = new Date(Date.now() - 10 * 60_000);
      for (const req of [
        deliver(raw, { secret: `whsec_${randomBytes(32).toString('base64')}` }),
        deliver(raw, { at: stale }),
        t.http().post('/api/webhooks/resend/inbound').set('content-type', 'application/json').send(raw),
      ]) {
        const res = await req.expect(401);
        expect(res.body.error).toBe('invalid_signature');
      }
      const id = 'msg_1';
      const at = new Date();
      const sig = hook.sign(id, at, raw);
      await t
        .http()
        .post('/api/webhooks/resend/inbound')
        .set('content-type', 'application/json')
        .set('webhook-id', id)
        .set('webhook-timestamp', String(Math.floor(at.getTime() / 1000)))
        .set('webhook-signature', sig)
        .send(`${raw} `)
        .expect(401);
    });

    it('stores a message once per provider id (svix-* header names too); a replay is duplicate with the same id', async () => {
      const raw = emailEvent();
      const first = await deliver(raw, { svix: true }).expect(200);
      expect(first.body).toEqual({ accepted: true, duplicate: false, email_id: expect.any(String), code: null });
      const again = await deliver(raw).expect(200);
      expect(again.body).toEqual({ accepted: true, duplicate: true, email_id: first.body.email_id, code: null });
    });

    it('other signed types are { skipped: true }; no configured recipient is not accepted; bad data is 400', async () => {
      const skipped = JSON.stringify({ type: 'email.sent', data: {} });
      await deliver(skipped).expect(200, { skipped: true });
      const nobody = await deliver(emailEvent({ to: ['someone@else.example'] })).expect(200);
      expect(nobody.body).toEqual({ accepted: false, duplicate: false, email_id: null, code: 'no_matching_mailbox' });
      for (const raw of [
        '[]',
        JSON.stringify({ type: 'email.received', data: {} }),
        JSON.stringify({ type: 'email.received', data: { email_id: 'x'.repeat(300), to: [box] } }),
      ]) {
        const res = await deliver(raw).expect(400);
        expect(res.body.error).toBe('invalid_payload');
      }
    });

    it('mailbox matching: To, then CC, then BCC; within a list the first configured address wins', async () => {
      const viaCc = await receive({ to: ['x@else.example'], cc: [`Hello <${alias}>`], bcc: [box] });
      expect((await asOp().get(`${inbox()}/${viaCc}`).expect(200)).body.email.mailbox).toBe(alias);
      const viaTo = await receive({ to: ['x@else.example', box.toUpperCase(), alias] });
      expect((await asOp().get(`${inbox()}/${viaTo}`).expect(200)).body.email.mailbox).toBe(box);
      const viaBcc = await receive({ to: [], cc: [], bcc: [alias] });
      expect((await asOp().get(`${inbox()}/${viaBcc}`).expect(200)).body.email.mailbox).toBe(alias);
    });

    it('exactly 256 KiB is accepted; one byte more is 413', async () => {
      const empty = emailEvent({ text: '' });
      const exact = emailEvent({ text: 'x'.repeat(256 * 1024 - Buffer.byteLength(empty)) });
      expect(Buffer.byteLength(exact)).toBe(256 * 1024);
      await deliver(exact).expect(200);
      const over = emailEvent({ text: 'x'.repeat(256 * 1024 - Buffer.byteLength(empty) + 1) });
      const res = await deliver(over).expect(413);
      expect(res.body.code).toBe('payload_too_large');
    });
  });

  describe('reading and triage', () => {
    let emailId: string;
    let storedId: string;
    let oversizeId: string;
    let missingId: string;
    const bytes = randomBytes(2048);

    beforeAll(async () => {
      emailId = await receive({
        attachments: [
          { filename: '../../etc/report.pdf', content_type: 'application/pdf', content: bytes.toString('base64') },
          { filename: 'huge.zip', content_type: 'application/zip', size: 11 * 1024 * 1024 },
          { filename: 'later.txt', content_type: 'text/plain', size: 10 },
        ],
      });
      const { body } = await asOp().get(`${inbox()}/${emailId}`).expect(200);
      [storedId, oversizeId, missingId] = body.email.attachments.map((a: { id: string }) => a.id);
    });

    it('one message: sanitized HTML (no script, handlers, javascript: or images), text, attachments, actions', async () => {
      const { body } = await asOp().get(`${inbox()}/${emailId}`).expect(200);
      const e = body.email;
      expect(e).toMatchObject({
        status: 'untriaged',
        category: null,
        priority: null,
        ingestion_status: 'complete',
        from_address: 'alice@example.net',
        from_name: 'Alice Sender',
        to: [box],
        subject: 'Help with my order',
        body_text: 'Hello, I need help.',
      });
      expect(e.body_html_sanitized).toContain('<strong>team</strong>');
      expect(e.body_html_sanitized).not.toMatch(/script|<img|onclick|javascript:|tracker/i);
      expect(e.attachments).toEqual([
        expect.objectContaining({ file_name: 'report.pdf', content_type: 'application/pdf', size_bytes: 2048, status: 'stored' }),
        expect.objectContaining({ file_name: 'huge.zip', status: 'skipped_oversize' }),
        expect.objectContaining({ file_name: 'later.txt', status: 'unavailable' }),
      ]);
      expect(JSON.stringify(e.attachments)).not.toContain('storage');
      expect(e.actions).toEqual([expect.objectContaining({ action: 'received', actor_member_id: null })]);
      expect(new Date(e.retain_until).getTime() - new Date(e.received_at).getTime()).toBe(365 * 86_400_000);
    });

    it('the list defaults to untriaged, filters by ?status=, has no bodies; a bad status is 400', async () => {
      const { body } = await asOp().get(inbox()).expect(200);
      expect(body.emails.every((e: { status: string }) => e.status === 'untriaged')).toBe(true);
      expect(body.emails.some((e: { id: string }) => e.id === emailId)).toBe(true);
      expect(body.emails[0]).not.toHaveProperty('body_html_sanitized');
      expect(body.emails[0]).not.toHaveProperty('body_text');
      const env = await asOp().get(`${inbox()}?shape=envelope&limit=1`).expect(200);
      expect(env.body).toMatchObject({ resource: 'emails', limit: 1 });
      await asOp().get(`${inbox()}?status=bogus`).expect(400);
      expect((await asOp().get(`${inbox()}?status=resolved`).expect(200)).body.emails.some((e: { id: string }) => e.id === emailId)).toBe(false);
    });

    it('PATCH triages, classifies, prioritizes, notes and links; every change is an audit action', async () => {
      const issue = await insertIssue(t, org.id, projectId);
      const { body } = await asOp()
        .patch(`${inbox()}/${emailId}`)
        .send({ status: 'resolved', category: 'support', priority: 1, note: 'Answered by phone', linkedIssueId: issue.id })
        .expect(200);
      expect(body.email).toMatchObject({ status: 'resolved', category: 'support', priority: 1, linked_issue_id: issue.id });
      expect(body.email.actions.map((a: { action: string }) => a.action)).toEqual([
        'received',
        'status_changed',
        'category_changed',
        'priority_changed',
        'issue_linked',
        'note_added',
      ]);
      expect(body.email.actions[1]).toMatchObject({ actor_member_id: op.memberId, detail: { from: 'untriaged', to: 'resolved' } });
      expect((await asOp().get(`${inbox()}?status=resolved`).expect(200)).body.emails.some((e: { id: string }) => e.id === emailId)).toBe(true);
      const cleared = await asOp().patch(`${inbox()}/${emailId}`).send({ category: null, linked_issue_id: null }).expect(200);
      expect(cleared.body.email).toMatchObject({ category: null, linked_issue_id: null });
    });

    it('bad PATCH input is 400; an unknown issue or message is 404', async () => {
      for (const body of [
        {},
        { status: 'done' },
        { category: 'x' },
        { priority: 7 },
        { priority: 1.5 },
        { note: '' },
        { linked_issue_id: 'nope' },
        { unknown: 1 },
      ]) {
        await asOp().patch(`${inbox()}/${emailId}`).send(body).expect(400);
      }
      await asOp().patch(`${inbox()}/${emailId}`).send({ linked_issue_id: randomUUID() }).expect(404);
      await asOp().patch(`${inbox()}/${randomUUID()}`).send({ status: 'triaged' }).expect(404);
      await asOp().get(`${inbox()}/not-a-uuid`).expect(404);
    });

    it('only operators: other members 403; another organization 404; anonymous 401', async () => {
      for (const key of [plain.key, ownerKey]) {
        const b = bearer(t, key);
        await b.get(inbox()).expect(403);
        await b.get(`${inbox()}/${emailId}`).expect(403);
        await b.patch(`${inbox()}/${emailId}`).send({ status: 'triaged' }).expect(403);
        await b.get(`${inbox()}/${emailId}/attachments/${storedId}/download`).expect(403);
      }
      const o = bearer(t, otherOp.key);
      await o.get(inbox()).expect(404);
      await o.get(`${inbox()}/${emailId}`).expect(404);
      await o.get(`${inbox(other.id)}/${emailId}`).expect(404);
      await o.get(`${inbox(other.id)}/${emailId}/attachments/${storedId}/download`).expect(404);
      await t.http().get(inbox()).expect(401);
      await t.http().get(`${inbox()}/${emailId}/attachments/${storedId}/download`).expect(401);
    });

    it('download: a 60-second signed URL served by the service; the bytes come back as a download', async () => {
      const { body } = await asOp().get(`${inbox()}/${emailId}/attachments/${storedId}/download`).expect(200);
      expect(body.expires_in).toBe(60);
      expect(new Date(body.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(60_000);
      const url = new URL(body.url);
      expect(url.pathname).toBe(`/api/inbox-attachments/${org.id}/${emailId}/${storedId}`);
      const res = await t
        .http()
        .get(`${url.pathname}${url.search}`)
        .buffer(true)
        .parse((r, cb) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => cb(null, Buffer.concat(chunks)));
        });
      expect(res.status).toBe(200);
      expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['content-disposition']).toContain('attachment; filename="report.pdf"');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toContain('no-store');
    });

    it('an altered or expired URL is refused (403); the four error responses of the download route', async () => {
      const { body } = await asOp().get(`${inbox()}/${emailId}/attachments/${storedId}/download`).expect(200);
      const url = new URL(body.url);
      const sig = url.searchParams.get('signature')!;
      const exp = url.searchParams.get('expires')!;
      // a changed character inside, and the other spellings of the last one (its two unused low bits:
      // they decode to the same bytes, and must be refused all the same)
      const altered = [`${sig.slice(0, 10)}${sig[10] === 'A' ? 'B' : 'A'}${sig.slice(11)}`, ...sameBytesSpellings(sig)];
      const variants = [
        ...altered.map((a) => `/api/inbox-attachments/${org.id}/${emailId}/${storedId}?expires=${exp}&signature=${a}`),
        `/api/inbox-attachments/${org.id}/${emailId}/${storedId}?expires=${Number(exp) + 30}&signature=${sig}`,
        `/api/inbox-attachments/${org.id}/${emailId}/${missingId}?expires=${exp}&signature=${sig}`,
        `/api/inbox-attachments/${other.id}/${emailId}/${storedId}?expires=${exp}&signature=${sig}`,
        `/api/inbox-attachments/${org.id}/${emailId}/${storedId}?expires=${exp}`,
        `/api/inbox-attachments/${org.id}/${emailId}/${storedId}`,
      ];
      for (const v of variants) {
        const res = await t.http().get(v).expect(403);
        expect(res.body.code).toBe('invalid_signature');
      }
      const signer = t.app.get(DownloadSigner);
      const old = signer.sign({ orgId: org.id, emailId, attachmentId: storedId }, Date.now() - 61_000);
      const expired = await t
        .http()
        .get(`/api/inbox-attachments/${org.id}/${emailId}/${storedId}?expires=${old.expires}&signature=${old.signature}`)
        .expect(403);
      expect(expired.body).toEqual({ error: expect.any(String), code: 'url_expired' });
      await t.http().get(`/api/inbox-attachments/not-a-uuid/${emailId}/${storedId}?expires=${exp}&signature=${sig}`).expect(404);

      // the route's four errors: 401, 403 (covered above), 404, 409
      const unknown = await asOp().get(`${inbox()}/${emailId}/attachments/${randomUUID()}/download`).expect(404);
      expect(unknown.body).toEqual({ error: expect.any(String), code: 'not_found' });
      for (const id of [oversizeId, missingId]) {
        const res = await asOp().get(`${inbox()}/${emailId}/attachments/${id}/download`).expect(409);
        expect(res.body).toEqual({ error: expect.any(String), code: 'attachment_unavailable' });
      }
    });
  });
});
