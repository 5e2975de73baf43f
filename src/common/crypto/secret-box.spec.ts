import { SecretBox, isBoundText } from './secret-box';

describe('SecretBox', () => {
  const master = 'm'.repeat(40);
  const box = new SecretBox(master, 'webhooks');

  it('round-trips and uses a fresh nonce each time', () => {
    const a = box.sealText('hunter2', 'org:1');
    const b = box.sealText('hunter2', 'org:1');
    expect(a).not.toBe(b);
    expect(box.openText(a, 'org:1')).toBe('hunter2');
    expect(box.open(box.seal('x'))).toBe('x');
  });

  it('refuses other additional data, another purpose, another master key and tampering', () => {
    const sealed = box.sealText('hunter2', 'org:1');
    expect(box.openText(sealed, 'org:2')).toBeNull();
    expect(new SecretBox(master, 'kpi-http-sync-secrets').openText(sealed, 'org:1')).toBeNull();
    expect(new SecretBox('n'.repeat(40), 'webhooks').openText(sealed, 'org:1')).toBeNull();
    const parts = sealed.split('.');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(box.openText(parts.join('.'), 'org:1')).toBeNull();
    expect(box.openText('garbage')).toBeNull();
  });

  it('text values say whether additional data was used (v2) or not (v1); relabelling one as the other does not open it', () => {
    const bound = box.sealText('hunter2', 'row:1');
    const unbound = box.sealText('hunter2');
    expect(bound).toMatch(/^v2\./);
    expect(unbound).toMatch(/^v1\./);
    expect(isBoundText(bound)).toBe(true);
    expect(isBoundText(unbound)).toBe(false);
    expect(box.openText(unbound)).toBe('hunter2');
    expect(box.openText(unbound, 'row:1')).toBeNull();
    expect(box.openText(bound)).toBeNull();
    expect(box.openText(bound.replace(/^v2\./, 'v1.'))).toBeNull();
    expect(box.openText(bound.replace(/^v2\./, 'v1.'), 'row:1')).toBeNull();
    expect(box.openText(unbound.replace(/^v1\./, 'v2.'), 'row:1')).toBeNull();
    expect(box.openText(bound.replace(/^v2\./, 'v3.'), 'row:1')).toBeNull();
  });
});
