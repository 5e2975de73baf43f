import { SecretBox } from './secret-box';

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
});
