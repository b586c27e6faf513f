import { describe, expect, it } from 'vitest';
import { cardsEditable, EMPTY_STATUS_PAGE_FORM, publicPageUrl, slugFromName, STATUS_PAGE_FORM_FIELDS, statusPageFormValues, statusPageInput } from '../../../web/src/status-pages/status-page-form.js';
import { fieldErrors } from '../../../web/src/shared/user-errors.js';

describe('the status page form', () => {
  it('suggests a slug from the name: lower-case, digits, inner hyphens, at most 63 characters', () => {
    expect(slugFromName('  Acme Café — Status! ')).toBe('acme-cafe-status');
    expect(slugFromName('x'.repeat(70))).toHaveLength(63);
    expect(slugFromName('--')).toBe('');
  });

  it('creates a page with its services in one card, leaving blank optional text out', () => {
    expect(statusPageInput({ ...EMPTY_STATUS_PAGE_FORM, name: ' Acme ', url: 'acme ', services: ['s1', 's2'] })).toEqual({
      name: 'Acme', url: 'acme', defaultTheme: 'AUTO', cards: [{ name: 'Services', services: ['s1', 's2'] }],
    });
    expect(statusPageInput({ ...EMPTY_STATUS_PAGE_FORM, name: 'A', url: 'a' }).cards).toEqual([]);
  });

  it('on edit keeps the stored card by its id and clears blank optional text', () => {
    const stored = { cards: [{ cardId: 'c1', name: 'Core', services: [{ id: 's1' }] }] };
    expect(statusPageInput({ ...EMPTY_STATUS_PAGE_FORM, name: 'A', url: 'a', services: ['s2'] }, stored)).toEqual({
      name: 'A', url: 'a', defaultTheme: 'AUTO', description: null, customDomain: null, cards: [{ id: 'c1', name: 'Core', services: ['s2'] }],
    });
  });

  it('leaves the cards of a page with several cards as stored', () => {
    const cards = [{ cardId: 'c1', name: 'A', services: [] }, { cardId: 'c2', name: 'B', services: [] }];
    expect(cardsEditable(cards)).toBe(false);
    expect(statusPageInput({ ...EMPTY_STATUS_PAGE_FORM, name: 'A', url: 'a' }, { cards })).not.toHaveProperty('cards');
  });

  it('reads a stored page back into the form', () => {
    expect(statusPageFormValues({ name: 'A', url: 'a', description: null, customDomain: 'status.example.com', defaultTheme: 'DARK', services: [{ id: 's1' }] })).toEqual({
      name: 'A', url: 'a', description: '', customDomain: 'status.example.com', defaultTheme: 'DARK', services: ['s1'],
    });
  });

  it('links to /status/{slug} on this server, or the custom domain', () => {
    expect(publicPageUrl({ url: 'acme' }, 'http://localhost:4000')).toBe('http://localhost:4000/status/acme');
    expect(publicPageUrl({ url: 'acme', customDomain: 'status.acme.test' }, 'http://localhost:4000')).toBe('https://status.acme.test/');
  });

  it('puts a card service error on the services list', () => {
    expect(fieldErrors([{ field: 'cards.0.services.1', code: 'NOT_FOUND', message: 'unknown service' }], STATUS_PAGE_FORM_FIELDS).byField).toEqual({ cards: ['unknown service'] });
  });
});
