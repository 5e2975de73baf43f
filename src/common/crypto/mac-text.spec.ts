import { createHmac } from 'node:crypto';
import { sameBytesSpellings } from '../../../test/support/base64url';
import { sameMacText } from './mac-text';

describe('sameMacText', () => {
  const mac = createHmac('sha256', 'k').update('payload').digest('base64url');

  it('accepts the exact text only', () => {
    expect(sameMacText(mac, mac)).toBe(true);
    expect(sameMacText(`${mac}A`, mac)).toBe(false);
    expect(sameMacText(mac.slice(0, -1), mac)).toBe(false);
    expect(sameMacText('', mac)).toBe(false);
    const middle = `${mac.slice(0, 10)}${mac[10] === 'A' ? 'B' : 'A'}${mac.slice(11)}`;
    expect(sameMacText(middle, mac)).toBe(false);
  });

  it('refuses the other base64url spellings of the same bytes (the last character of a 32-byte MAC)', () => {
    // the low two bits of the 43rd character are unused: these decode to the very same bytes
    const twins = sameBytesSpellings(mac);
    expect(twins).toHaveLength(3);
    for (const twin of twins) {
      expect(Buffer.from(twin, 'base64url').equals(Buffer.from(mac, 'base64url'))).toBe(true);
      expect(sameMacText(twin, mac)).toBe(false);
    }
  });
});
