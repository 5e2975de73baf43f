import { createHmac } from 'node:crypto';
import { parsePrUrl, verifyGithubSignature } from './pr-url';

describe('GitHub webhook signature (X-Hub-Signature-256)', () => {
  // GitHub's documented example: https://docs.github.com/webhooks/using-webhooks/validating-webhook-deliveries
  const secret = "It's a Secret to Everybody";
  const payload = Buffer.from('Hello, World!');
  const documented = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';

  it('accepts the documented example vector', () => {
    expect(verifyGithubSignature(secret, payload, documented)).toBe(true);
    expect(verifyGithubSignature(secret, payload, documented.toUpperCase().replace('SHA256=', 'sha256='))).toBe(true);
  });

  it.each([
    ['another secret', "It's a secret to everybody", payload, documented],
    ['other bytes', secret, Buffer.from('Hello, World! '), documented],
    ['missing header', secret, payload, undefined],
    ['an array header', secret, payload, [documented]],
    ['sha1 prefix', secret, payload, documented.replace('sha256=', 'sha1=')],
    ['truncated digest', secret, payload, documented.slice(0, -2)],
    ['non-hex digest', secret, payload, `${documented.slice(0, -1)}z`],
    ['empty', secret, payload, ''],
  ])('refuses %s', (_what, s, body, header) => {
    expect(verifyGithubSignature(s, body, header)).toBe(false);
  });

  it('verifies any body signed with the secret (HMAC-SHA256 over the raw bytes)', () => {
    const body = Buffer.from('{"zen":"Design for failure."}');
    expect(verifyGithubSignature('s3cret', body, `sha256=${createHmac('sha256', 's3cret').update(body).digest('hex')}`)).toBe(true);
  });
});

describe('canonical pull-request URLs', () => {
  it.each([
    ['https://github.com/octo/widgets/pull/7', 'octo', 'widgets', 7],
    ['https://github.com/octo/widgets/pull/7/', 'octo', 'widgets', 7],
    ['https://www.github.com/Octo-Org/my.repo_x/pull/12/files', 'Octo-Org', 'my.repo_x', 12],
    ['https://github.com/octo/widgets/pull/7?diff=split#discussion', 'octo', 'widgets', 7],
  ])('%s is a pull request', (url, owner, repo, number) => {
    expect(parsePrUrl(url)).toEqual({ owner, repo, number, url: `https://github.com/${owner}/${repo}/pull/${number}` });
  });

  it.each([
    'https://github.com/octo/widgets/issues/5',
    'https://github.com/octo/widgets/commit/0123456789abcdef0123456789abcdef01234567',
    'https://github.com/octo/widgets/pulls',
    'https://github.com/octo/widgets/pull/abc',
    'https://github.com/octo/widgets/pull/0',
    'https://github.com/octo/widgets/pull/99999999999',
    'https://github.com/octo/widgets/pull/7/files/extra',
    'https://github.com/octo/widgets/pull/7/blame',
    'https://gitlab.com/octo/widgets/-/merge_requests/3',
    'https://github.com.evil.example/octo/widgets/pull/3',
    'https://evil.example/github.com/octo/widgets/pull/3',
    'http://github.com/octo/widgets/pull/3',
    'https://user:pw@github.com/octo/widgets/pull/3',
    'https://github.com:8443/octo/widgets/pull/3',
    'https://github.com/-octo/widgets/pull/3',
    'https://github.com/octo/../pull/3',
    'javascript:alert(1)',
    'not a url',
    '',
    42,
    null,
    { url: 'https://github.com/octo/widgets/pull/7' },
  ])('%p is not', (url) => {
    expect(parsePrUrl(url)).toBeNull();
  });
});
