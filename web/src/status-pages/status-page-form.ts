/** What the status page form holds: text as typed, and the services of the page's one card. */
export interface StatusPageFormValues {
  name: string;
  url: string;
  description: string;
  customDomain: string;
  defaultTheme: 'AUTO' | 'LIGHT' | 'DARK';
  services: string[];
}

/** The status page form's fields by the paths userErrors name (`cards.0.services.1` lands on `cards`). */
export const STATUS_PAGE_FORM_FIELDS = ['name', 'url', 'description', 'customDomain', 'defaultTheme', 'cards'] as const;

export const EMPTY_STATUS_PAGE_FORM: StatusPageFormValues = { name: '', url: '', description: '', customDomain: '', defaultTheme: 'AUTO', services: [] };

/** A slug suggested from a page name: lower-case letters, digits and inner hyphens, at most 63 characters. */
export function slugFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 63)
    .replace(/^-+|-+$/g, '');
}

interface StoredCard { cardId: string; name: string; services: readonly { id: string }[] }

/**
 * Whether the form can edit the page's cards: it shows one list of services, so a page with several
 * cards keeps them as stored (the form then sends no cards).
 */
export function cardsEditable(cards: readonly StoredCard[] | undefined): boolean {
  return (cards?.length ?? 0) <= 1;
}

/**
 * The StatusPageInput of the form's values. The services go in one card (the stored card kept by its
 * id, else a new "Services" card; none when no service is picked); a page with several cards keeps
 * them (no cards sent). Blank optional text is sent as null on edit (clearing it), left out on create.
 */
export function statusPageInput(values: StatusPageFormValues, stored?: { cards: readonly StoredCard[] }) {
  const editing = stored !== undefined;
  const optional = (text: string) => (text.trim() ? text.trim() : editing ? null : undefined);
  const input: {
    name: string; url: string; description?: string | null; customDomain?: string | null; defaultTheme: StatusPageFormValues['defaultTheme'];
    cards?: { id?: string; name: string; services: string[] }[];
  } = {
    name: values.name.trim(),
    url: values.url.trim(),
    description: optional(values.description),
    customDomain: optional(values.customDomain),
    defaultTheme: values.defaultTheme,
  };
  if (!editing || cardsEditable(stored.cards)) {
    const card = stored?.cards[0];
    input.cards = values.services.length ? [{ ...(card ? { id: card.cardId } : {}), name: card?.name ?? 'Services', services: values.services }] : [];
  }
  for (const key of ['description', 'customDomain'] as const) if (input[key] === undefined) delete input[key];
  return input;
}

/** A stored page's values as the form shows them. */
export function statusPageFormValues(page: {
  name: string; url: string; description?: string | null; customDomain?: string | null; defaultTheme: StatusPageFormValues['defaultTheme']; services: readonly { id: string }[];
}): StatusPageFormValues {
  return {
    name: page.name, url: page.url, description: page.description ?? '', customDomain: page.customDomain ?? '',
    defaultTheme: page.defaultTheme, services: page.services.map((s) => s.id),
  };
}

/** Where the page is served: its custom domain when it has one, else /status/{url} on this server. */
export function publicPageUrl(page: { url: string; customDomain?: string | null }, origin: string): string {
  return page.customDomain ? `https://${page.customDomain}/` : `${origin}/status/${encodeURIComponent(page.url)}`;
}
