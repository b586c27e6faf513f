import type { Issue } from './lookout-error.js';

/** A page's `url`: one DNS label in lower case (letters, digits, hyphens inside), 1 to 63 characters. */
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The issue of a page's `url` slug, if any: public pages are found by it, so it reads as a subdomain. */
export function statusPageUrlIssue(url: string): Issue | undefined {
  if (SLUG.test(url)) return undefined;
  return {
    key: 'url',
    message: 'must be 1 to 63 lower-case letters, digits and hyphens, starting and ending with a letter or digit (like a subdomain)',
  };
}

/** A custom domain as stored and compared: lower case (host names are case-insensitive). */
export const customDomainOf = (host: string): string => host.toLowerCase();

/**
 * The issue of a custom domain (already lower-cased), if any: a host name of two labels or more,
 * each a DNS label, 253 characters at most, whose last label is not all digits (an IP address is
 * no domain). International names are sent in their ASCII (punycode, `xn--`) form.
 */
export function customDomainIssue(host: string): Issue | undefined {
  const labels = host.split('.');
  const ok = host.length <= 253 && labels.length >= 2 && labels.every((l) => LABEL.test(l)) && !/^\d+$/.test(labels[labels.length - 1]!);
  if (ok) return undefined;
  return {
    key: 'customDomain',
    message: 'must be a host name such as status.example.com: dot-separated labels of letters, digits and inner hyphens '
      + '(international names in their xn-- form), no scheme, port, path or trailing dot',
  };
}

/** The issue of a link a page shows (logo, favicon, where the logo leads), if any: an absolute http or https URL. */
export function pageLinkIssue(key: string, link: string): Issue | undefined {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return { key, message: 'must be an absolute http or https URL' };
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return { key, message: 'must be an http or https URL' };
  return undefined;
}

/** A card as a write sends it. */
export interface CardInput {
  id?: string | null;
  statusPageId?: string | null;
  name: string;
  services?: readonly { id: string }[] | null;
}

/**
 * Issues of the cards a page write sends:
 * - each service must be one of the account's (`knownServices`: the ids found), once per card
 *   (`cards.N.services.M.id`); another account's service is "not found" like an unknown one;
 * - on an update (`page` given), a card `id` must be a card of this page, named once (`cards.N.id`),
 *   and a `statusPageId` must be this page's (`cards.N.statusPageId`). On create both are ignored:
 *   a new page has no cards to name.
 */
export function cardIssues(
  cards: readonly CardInput[],
  knownServices: ReadonlySet<string>,
  page?: { id: string; cardIds: ReadonlySet<string> },
): Issue[] {
  const issues: Issue[] = [];
  const seenCards = new Set<string>();
  cards.forEach((card, n) => {
    if (page && card.id != null) {
      const id = card.id.toLowerCase();
      if (!page.cardIds.has(id)) issues.push({ key: `cards.${n}.id`, message: `is not a card of this status page (${card.id}); leave it out to add a card` });
      else if (seenCards.has(id)) issues.push({ key: `cards.${n}.id`, message: 'names a card listed before it' });
      seenCards.add(id);
    }
    if (page && card.statusPageId != null && card.statusPageId.toLowerCase() !== page.id) {
      issues.push({ key: `cards.${n}.statusPageId`, message: `is not this status page (${page.id})` });
    }
    const seenServices = new Set<string>();
    (card.services ?? []).forEach((service, m) => {
      const id = service.id.toLowerCase();
      const key = `cards.${n}.services.${m}.id`;
      if (!knownServices.has(id)) issues.push({ key, message: `is not a service of this account (${service.id})` });
      else if (seenServices.has(id)) issues.push({ key, message: 'names a service this card lists before it' });
      seenServices.add(id);
    });
  });
  return issues;
}

/** The issue of a page's privacy, if any: a private page needs a password, sent now or stored before. */
export function privacyIssue(isPrivate: boolean, hasPassword: boolean): Issue | undefined {
  if (!isPrivate || hasPassword) return undefined;
  return { key: 'password', message: 'is required to make the page private (isPrivate: true): no password is stored for it yet' };
}
