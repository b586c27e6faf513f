import { describe, expect, it } from 'vitest';
import { localReturnPath } from '../../src/domain/local-return-path.js';

describe('where a sign-in returns to', () => {
  it('keeps a local path with its query and fragment', () => {
    expect(localReturnPath('/checks?q=api#top')).toBe('/checks?q=api#top');
    expect(localReturnPath('/')).toBe('/');
  });

  it.each([
    'https://evil.example', '//evil.example/path', '/\\evil.example', '\\\\evil.example', 'evil.example', 'javascript:alert(1)',
    '/\t/evil.example', '/%0a', undefined, ['/checks'], `/${'a'.repeat(2001)}`,
  ])('answers / for %j: no open redirects', (value) => {
    const path = localReturnPath(value);
    expect(path.startsWith('/') && !path.startsWith('//')).toBe(true);
    if (typeof value === 'string' && value !== '/%0a') expect(path).toBe('/');
  });
});
