import { closestField, renameLeadingProperty } from './validation';

describe('renameLeadingProperty: a validation message named by the path the client sent', () => {
  // what the messages were renamed with before (the property name became a pattern)
  const legacy = (message: string, property: string, path: string) => message.replace(new RegExp(`^${property}\\b`), path);

  it.each([
    ['title must be a string', 'title', 'name'],
    ['title must be a string', 'title', 'items.0.title'],
    ['titles must be an array', 'title', 'x'],
    ['0 must be a string', '0', 'items.0'],
    ['project_id must be a UUID', 'project_id', 'projectId'],
    ['each value in labelIds must be a UUID', 'labelIds', 'label_ids'],
    ['title', 'title', 'name'],
    ['', 'title', 'name'],
  ])('%s (%s → %s)', (message, property, path) => expect(renameLeadingProperty(message, property, path)).toBe(legacy(message, property, path)));

  it('takes a property name as text, never as a pattern', () => {
    expect(renameLeadingProperty('a.b must be a string', 'a.b', 'x')).toBe('x must be a string');
    expect(renameLeadingProperty('aXb must be a string', 'a.b', 'x')).toBe('aXb must be a string');
    expect(renameLeadingProperty('(a+)+b must be a string', '(a+)+b', 'x')).toBe('x must be a string');
    expect(renameLeadingProperty('a must be a string', 'a', '$&$&')).toBe('$&$& must be a string');
    // a name a pattern could not even hold (a RegExp of it is "too large", a 500)
    const long = `${'('.repeat(1 << 20)}a`;
    expect(renameLeadingProperty(`${long} must be a string`, long, 'x') === 'x must be a string').toBe(true);
  });
});

describe('closestField: the known field an unknown one was probably meant to be', () => {
  const known = ['title', 'description', 'projectId', 'dueDate', 'project_id', 'due_date'];
  it.each([
    ['project', 'projectId'],
    ['projectID', 'projectId'],
    ['project_idd', 'project_id'],
    ['descripton', 'description'],
    ['desc', 'description'],
    ['Title', 'title'],
    ['due-date', 'due_date'],
  ])('%s → %s', (name, expected) => expect(closestField(name, known)).toBe(expected));

  it('none when nothing is close, or the name is too long to compare', () => {
    expect(closestField('zzqqxx', known)).toBeUndefined();
    expect(closestField('ab', known)).toBeUndefined();
    expect(closestField(`title${'x'.repeat(100)}`, known)).toBeUndefined();
  });
});
