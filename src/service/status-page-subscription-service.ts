import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { request } from 'undici';
import type { SubscriptionBulkBodyType } from '../contract/status-page-subscription-schemas.js';
import { LookoutError, assertValid, notFound } from '../domain/lookout-error.js';
import {
  distinctSubscriptions, type SubscriptionStatus, type SubscriptionType,
} from '../domain/status-page-subscription-issues.js';
import {
  confirmationMail, confirmationWebhookBody, type ConfirmationLinks, type SubscribedPage,
} from '../domain/status-page-subscription-messages.js';
import { SIGNATURE_HEADERS, webhookSignature } from '../domain/webhook-signature.js';
import { privateWebhookIssues } from '../domain/private-webhook-issues.js';
import { webhookFailureReason } from '../domain/webhook-failure-reason.js';
import type { EventBus } from '../events/event-bus.js';
import type { Store } from '../store/create-store.js';
import type { StatusPageSubscriptionRow, TokenPurpose } from '../store/status-page-subscriptions-repository.js';
import { createPublicWrite } from './status-page-public-write.js';
import { createGuardedAgent } from './create-guarded-agent.js';
import type { SendMails } from './status-page-subscription-mailer.js';

/** Webhook confirmations sent at once at most. */
const WEBHOOK_CONCURRENCY = 10;

export function toSubscriptionView(row: StatusPageSubscriptionRow) {
  return {
    id: row.id,
    type: row.type as SubscriptionType,
    address: row.address,
    status: row.status as SubscriptionStatus,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at?.toISOString() ?? null,
  };
}

/** A link token: 32 random bytes, URL-safe. Only its sha-256 is stored. */
const newToken = () => randomBytes(32).toString('base64url');
const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** How a confirmation went: null when none was needed (autoVerify). */
type Outcome = { ok: true } | { ok: false; error: string } | null;

/** What the subscription service needs. */
export interface StatusPageSubscriptionServiceOptions {
  store: Store;
  /** Where `publicContentChanged` goes after each write commits; none in unit uses. */
  bus?: EventBus;
  logger?: Logger;
  /** Base URL of the confirm and unsubscribe links (LOOKOUT_PUBLIC_URL). */
  publicUrl: string;
  /** Sends confirmation mails; absent when no SMTP server is configured (EMAIL subscribers then need autoVerify). */
  sendMails?: SendMails;
  /** Time limit of a webhook confirmation POST, in ms. */
  timeoutMs: number;
  /** LOOKOUT_ALLOW_PRIVATE_TARGETS: webhooks may point at loopback, link-local and private addresses. */
  allowPrivateTargets?: boolean;
}

/**
 * Subscribers of status pages: EMAIL and WEBHOOK, with double opt-in. A new subscriber is PENDING
 * and gets a confirmation (a mail, or a POST signed with its own secret) carrying a confirm link;
 * following it makes the subscriber VERIFIED. Every message carries an unsubscribe link. Tokens of
 * the links are stored as sha-256 hashes only. Every write moves the account's public content
 * version on and publishes `publicContentChanged` (subject `subscription`, subjectId the page's id).
 * Long by design: an object of short use-case methods (one per route) over the same store and bus; the module is the unit, not the closure.
 */
export function createStatusPageSubscriptionService({ store, bus, logger, publicUrl, sendMails, timeoutMs, allowPrivateTargets = false }: StatusPageSubscriptionServiceOptions) {
  // Made on the first webhook confirmation: most instances (the notifier's, for its links) never post one.
  let webhooks: ReturnType<typeof createGuardedAgent> | undefined;
  const webhookDispatcher = () => (webhooks ??= createGuardedAgent({ allowPrivateTargets, connectTimeoutMs: timeoutMs }));
  const publicWrite = createPublicWrite({ store, bus, logger });
  const base = publicUrl.replace(/\/+$/, '');
  const linkOf = (pageUrl: string, kind: 'confirm' | 'unsubscribe', token: string) =>
    `${base}/status/${encodeURIComponent(pageUrl)}/subscriptions/${kind}?token=${token}`;
  const subscriptionChange = (pageId: string) => ({ subject: 'subscription' as const, subjectId: pageId });

  async function requirePage(accountId: string, pageId: string) {
    const page = await store.statusPages.get(accountId, pageId);
    if (!page) throw notFound('Status page', pageId);
    return page;
  }

  /**
   * POSTs a confirmation to a webhook subscriber, signed with its secret; redirects are not followed.
   * A failure says only its class (webhookFailureReason), never what the target answered.
   */
  async function postConfirmation(url: string, secret: string, body: string): Promise<Outcome> {
    const signature = webhookSignature(secret, body);
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const res = await request(url, {
        method: 'POST', body, signal, dispatcher: webhookDispatcher(), reset: true, headersTimeout: timeoutMs, bodyTimeout: timeoutMs,
        headers: {
          'content-type': 'application/json', 'user-agent': 'Lookout status page', 'x-lookout-event': 'subscriptionConfirmation',
          ...Object.fromEntries(SIGNATURE_HEADERS.map((h) => [h, signature])),
        },
      });
      await res.body.dump();
      return res.statusCode >= 200 && res.statusCode < 300 ? { ok: true } : { ok: false, error: 'http_error' };
    } catch (err) {
      return { ok: false, error: webhookFailureReason(err, signal.aborted) };
    }
  }

  /** Sends each new subscriber its confirmation; one outcome per subscriber, in order. */
  async function sendConfirmations(page: SubscribedPage, items: { row: StatusPageSubscriptionRow; links: ConfirmationLinks; secret: string | null }[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = items.map(() => null);
    const mails = items.flatMap((item, i) => (item.row.type === 'EMAIL' ? [{ i, mail: confirmationMail(item.row.address, page, item.links) }] : []));
    if (mails.length > 0) {
      const sent = sendMails ? await sendMails(mails.map((m) => m.mail)) : mails.map(() => ({ ok: false as const, error: 'SMTP_URL not configured' }));
      mails.forEach((m, k) => (outcomes[m.i] = sent[k]!));
    }
    const hooks = items.flatMap((item, i) => (item.row.type === 'WEBHOOK' ? [{ i, item }] : []));
    for (let at = 0; at < hooks.length; at += WEBHOOK_CONCURRENCY) {
      await Promise.all(hooks.slice(at, at + WEBHOOK_CONCURRENCY).map(async ({ i, item }) => {
        outcomes[i] = await postConfirmation(item.row.address, item.secret!, confirmationWebhookBody(item.row.id, page, item.links));
      }));
    }
    items.forEach((item, i) => {
      const outcome = outcomes[i];
      if (outcome && !outcome.ok) logger?.warn({ subscriptionId: item.row.id, statusPageId: page.id, error: outcome.error }, 'status page subscription: confirmation not sent');
    });
    return outcomes;
  }

  /** The subscriber a link's token names on the page with this slug, or undefined. */
  const byToken = (pageUrl: string, purpose: TokenPurpose, token: string) => store.statusPageSubscriptions.byToken(pageUrl, purpose, hashToken(token));

  return {
    /** Every subscriber of the account's page, oldest first. */
    async list(accountId: string, pageId: string) {
      await requirePage(accountId, pageId);
      return (await store.statusPageSubscriptions.list(accountId, pageId)).map(toSubscriptionView);
    },

    /**
     * Adds the subscribers the page does not have yet (an address sent twice counts once) and,
     * unless `autoVerify`, sends each its confirmation after the write commits; the answer tells
     * per subscriber whether that worked and shows each webhook's secret, once. EMAIL subscribers
     * without autoVerify need SMTP_URL: without it the request is refused (409), nothing written.
     */
    async bulkCreate(accountId: string, pageId: string, body: SubscriptionBulkBodyType) {
      const autoVerify = body.autoVerify ?? false;
      await requirePage(accountId, pageId);
      const { issues, subscriptions } = distinctSubscriptions(body.subscriptions);
      assertValid(issues);
      if (!allowPrivateTargets) assertValid(privateWebhookIssues(body.subscriptions));
      if (!autoVerify && !sendMails && subscriptions.some((s) => s.type === 'EMAIL')) {
        throw new LookoutError('CONFLICT', 'Confirmation mails cannot be sent: SMTP_URL is not set. Set SMTP_URL to an SMTP server, '
          + 'or send autoVerify: true to subscribe these addresses without a confirmation. Nothing was written');
      }
      const status: SubscriptionStatus = autoVerify ? 'VERIFIED' : 'PENDING';
      const planned = new Map(subscriptions.map((s) => {
        const id: string = randomUUID();
        return [id, {
          id, type: s.type, address: s.address, addressKey: s.key, status,
          webhookSecret: s.type === 'WEBHOOK' ? randomBytes(32).toString('hex') : null,
          confirmToken: autoVerify ? null : newToken(),
          unsubscribeToken: newToken(),
        }];
      }));
      const { page, created } = await publicWrite(accountId, async (tx) => {
        const page = await tx.statusPages.get(accountId, pageId);
        if (!page) throw notFound('Status page', pageId);
        const created = await tx.statusPageSubscriptions.insertMany(accountId, pageId, [...planned.values()]);
        await tx.statusPageSubscriptions.addTokens(created.flatMap((row) => {
          const p = planned.get(row.id)!;
          const unsubscribe = { subscriptionId: row.id, purpose: 'UNSUBSCRIBE' as const, hash: hashToken(p.unsubscribeToken) };
          return p.confirmToken ? [{ subscriptionId: row.id, purpose: 'CONFIRM' as const, hash: hashToken(p.confirmToken) }, unsubscribe] : [unsubscribe];
        }));
        return { page, created };
      }, (r) => (r.created.length > 0 ? subscriptionChange(pageId) : null));

      const items = created.map((row) => {
        const p = planned.get(row.id)!;
        const links = { confirmUrl: p.confirmToken ? linkOf(page.url, 'confirm', p.confirmToken) : '', unsubscribeUrl: linkOf(page.url, 'unsubscribe', p.unsubscribeToken) };
        return { row, links, secret: p.webhookSecret };
      });
      const outcomes = autoVerify ? items.map((): Outcome => null) : await sendConfirmations({ id: page.id, name: page.name, url: page.url }, items);
      return {
        created: created.length,
        skipped: subscriptions.length - created.length,
        status,
        subscriptions: items.map(({ row, secret }, i) => {
          const outcome = outcomes[i]!;
          return {
            ...toSubscriptionView(row),
            secret,
            confirmation: outcome === null ? 'NOT_NEEDED' as const : outcome.ok ? 'SENT' as const : 'FAILED' as const,
            confirmationError: outcome && !outcome.ok ? outcome.error : null,
          };
        }),
      };
    },

    async delete(accountId: string, pageId: string, id: string): Promise<void> {
      await publicWrite(accountId, async (tx) => {
        if (!(await tx.statusPages.get(accountId, pageId))) throw notFound('Status page', pageId);
        if (!(await tx.statusPageSubscriptions.delete(accountId, pageId, id))) throw notFound('Subscription', id);
      }, () => subscriptionChange(pageId));
    },

    /**
     * Follows a confirm link: the subscriber becomes VERIFIED ('CONFIRMED'), or was already
     * ('ALREADY_CONFIRMED'); undefined when the token names no subscriber of the page `pageUrl`.
     */
    async confirm(pageUrl: string, token: string): Promise<{ pageName: string; outcome: 'CONFIRMED' | 'ALREADY_CONFIRMED' } | undefined> {
      const found = await byToken(pageUrl, 'CONFIRM', token);
      if (!found) return undefined;
      const verified = await publicWrite(found.account_id, (tx) => tx.statusPageSubscriptions.verify(found.id), (row) => (row ? subscriptionChange(found.status_page_id) : null));
      return { pageName: found.page_name, outcome: verified ? 'CONFIRMED' : 'ALREADY_CONFIRMED' };
    },

    /** The page and address an unsubscribe link is for (nothing written), or undefined. */
    async describeUnsubscribe(pageUrl: string, token: string): Promise<{ pageName: string; address: string } | undefined> {
      const found = await byToken(pageUrl, 'UNSUBSCRIBE', token);
      return found && { pageName: found.page_name, address: found.address };
    },

    /** Follows an unsubscribe link: removes the subscriber; undefined when the token names none (any more). */
    async unsubscribe(pageUrl: string, token: string): Promise<{ pageName: string } | undefined> {
      const found = await byToken(pageUrl, 'UNSUBSCRIBE', token);
      if (!found) return undefined;
      const removed = await publicWrite(found.account_id, (tx) => tx.statusPageSubscriptions.deleteById(found.id), (gone) => (gone ? subscriptionChange(found.status_page_id) : null));
      return removed ? { pageName: found.page_name } : undefined;
    },

    /**
     * A fresh unsubscribe link for a message to the subscriber (notifications of incidents and
     * maintenance carry one each; the links of earlier messages keep working until it unsubscribes).
     */
    async unsubscribeUrl(accountId: string, subscriptionId: string): Promise<string> {
      const row = await store.statusPageSubscriptions.get(accountId, subscriptionId);
      if (!row) throw notFound('Subscription', subscriptionId);
      const token = newToken();
      await store.statusPageSubscriptions.addTokens([{ subscriptionId, purpose: 'UNSUBSCRIBE', hash: hashToken(token) }]);
      return linkOf(row.page_url, 'unsubscribe', token);
    },
  };
}
export type StatusPageSubscriptionService = ReturnType<typeof createStatusPageSubscriptionService>;
