import 'reflect-metadata';
import { validate } from 'class-validator';
import { IsEmailAddress } from './input';

class WithEmail {
  @IsEmailAddress()
  email: unknown;
}

const problems = async (email: unknown) => (await validate(Object.assign(new WithEmail(), { email }))).flatMap((e) => Object.values(e.constraints ?? {}));

describe('IsEmailAddress', () => {
  it('accepts addresses and refuses other text with one message', async () => {
    expect(await problems('ada@example.com')).toEqual([]);
    for (const bad of ['nope', '', 'a@b', 5, null, ['a@example.com']]) expect(await problems(bad)).toEqual(['email must be a valid email address']);
  });

  it('refuses text that is not well-formed Unicode instead of throwing (validator.js calls encodeURI)', async () => {
    for (const bad of ['\ud800', 'a\udc00@example.com', 'ab@exa\ud800mple.com']) expect(await problems(bad)).toEqual(['email must be a valid email address']);
  });
});
