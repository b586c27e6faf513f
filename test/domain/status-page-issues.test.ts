import { describe, expect, it } from 'vitest';
import { cardIssues, customDomainIssue, customDomainOf, pageLinkIssue, privacyIssue, statusPageUrlIssue } from '../../src/domain/status-page-issues.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const PAGE = '33333333-3333-4333-8333-333333333333';
const CARD = '44444444-4444-4444-8444-444444444444';

describe('statusPageUrlIssue', () => {
  it.each(['a', 'acme', 'acme-status', '1st', 'a1-b2-c3', 'x'.repeat(63)])('accepts the slug %s', (url) => {
    expect(statusPageUrlIssue(url)).toBeUndefined();
  });
  it.each(['', 'Acme', 'acme_status', '-acme', 'acme-', 'acme.status', 'acme status', 'x'.repeat(64), 'ämter'])('refuses %j naming url', (url) => {
    expect(statusPageUrlIssue(url)).toEqual({ key: 'url', message: expect.stringContaining('lower-case') });
  });
});

describe('customDomainIssue', () => {
  it.each(['status.acme.example', 'a.b', 'xn--mter-loa.example', 'status-1.acme.io', `${'a'.repeat(63)}.example`])('accepts the host %s', (host) => {
    expect(customDomainIssue(host)).toBeUndefined();
  });
  it.each([
    'localhost', 'https://status.acme.example', 'status.acme.example:443', 'status.acme.example/', 'status.acme.example.', '.acme.example',
    'status..acme.example', '-status.acme.example', 'status_page.acme.example', '192.0.2.1', 'status.acme.123', 'ämter.example',
    `${'a'.repeat(64)}.example`, `${'a.'.repeat(127)}ab`,
  ])('refuses %j naming customDomain', (host) => {
    expect(customDomainIssue(host)?.key).toBe('customDomain');
  });
  it('compares host names without case', () => {
    expect(customDomainOf('Status.ACME.example')).toBe('status.acme.example');
  });
});

describe('pageLinkIssue', () => {
  it('accepts absolute http and https URLs only', () => {
    expect(pageLinkIssue('logo', 'https://acme.example/logo.png')).toBeUndefined();
    expect(pageLinkIssue('logo', 'http://acme.example:8080/a?b=c')).toBeUndefined();
    for (const link of ['ftp://acme.example/logo.png', 'javascript:alert(1)', 'data:image/png;base64,AAAA', '/logo.png', 'logo.png', 'https://']) {
      expect(pageLinkIssue('favicon', link), link).toEqual({ key: 'favicon', message: expect.any(String) });
    }
  });
});

describe('cardIssues', () => {
  const known = new Set([A, B]);
  it('names each card service that is not the account\'s, and each listed twice in one card (any case)', () => {
    expect(cardIssues([{ name: 'c', services: [{ id: A }, { id: B }] }, { name: 'd', services: [{ id: A }] }], known)).toEqual([]);
    const issues = cardIssues([
      { name: 'c', services: [{ id: A }, { id: PAGE }, { id: A.toUpperCase() }] },
      { name: 'd', services: null },
      { name: 'e', services: [{ id: CARD }] },
    ], known);
    expect(issues.map((i) => i.key)).toEqual(['cards.0.services.1.id', 'cards.0.services.2.id', 'cards.2.services.0.id']);
  });
  it('ignores card ids and statusPageId on create, and on update holds them to the page', () => {
    expect(cardIssues([{ id: CARD, statusPageId: A, name: 'c' }], known)).toEqual([]);
    const page = { id: PAGE, cardIds: new Set([CARD]) };
    expect(cardIssues([{ id: CARD.toUpperCase(), statusPageId: PAGE.toUpperCase(), name: 'c' }, { name: 'new' }], known, page)).toEqual([]);
    const issues = cardIssues([{ id: A, name: 'c' }, { id: CARD, name: 'd' }, { id: CARD, name: 'e' }, { statusPageId: B, name: 'f' }], known, page);
    expect(issues.map((i) => i.key)).toEqual(['cards.0.id', 'cards.2.id', 'cards.3.statusPageId']);
  });
});

describe('privacyIssue', () => {
  it('needs a password, sent or stored, only for a private page', () => {
    expect(privacyIssue(false, false)).toBeUndefined();
    expect(privacyIssue(true, true)).toBeUndefined();
    expect(privacyIssue(true, false)).toEqual({ key: 'password', message: expect.stringContaining('isPrivate') });
  });
});
