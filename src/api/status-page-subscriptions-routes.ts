import type { FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Api, ApiContext } from './api-context.js';
import { publicSecurityHeaders } from './public-security-headers.js';
import { StatusPageParams } from '../contract/status-page-schemas.js';
import {
  BULK_SUBSCRIPTIONS_MAX, StatusPageSubscriptionParams, SubscriberLinkParams, SubscriberLinkQuery, SubscriptionBulkBody,
} from '../contract/status-page-subscription-schemas.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, responses } from '../contract/route-responses.js';
import { subscriptionPage, type PageForm } from '../domain/status-page-subscription-messages.js';

const tags = ['Status page subscriptions'];
const BULK = `1 to ${BULK_SUBSCRIPTIONS_MAX} subscribers: EMAIL with an email address as \`config\`, WEBHOOK with an http or https URL `
  + '(else 400 naming `subscriptions.N.config`, nothing written). `skipped` counts those the page has already; an address sent twice counts once. '
  + 'Without `autoVerify` each new subscriber is PENDING and gets a confirmation after the write: EMAIL a mail through SMTP_URL, '
  + 'WEBHOOK a JSON POST {type: "subscriptionConfirmation", subscriptionId, statusPage, confirmUrl, unsubscribeUrl} signed with its secret '
  + '(hex HMAC-SHA256 of the body in X-Lookout-Signature and X-Checkly-Signature). Following confirmUrl makes it VERIFIED. '
  + 'Each added subscriber is listed in `subscriptions` with `confirmation` SENT, FAILED (with `confirmationError`) or NOT_NEEDED, '
  + 'and a WEBHOOK one with its `secret`, shown only here. EMAIL subscribers without autoVerify while SMTP_URL is not set: 409, nothing written.';

/** Headers of the subscriber link pages: nothing loaded from elsewhere, no token leaked through Referer, never cached or indexed. */
function sendPage(reply: FastifyReply, status: number, title: string, message: string, form?: PageForm) {
  return publicSecurityHeaders(reply.code(status), 'html')
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .send(subscriptionPage(title, message, form));
}

const UNKNOWN_LINK = 'This link is not valid (any more): the subscription it was for may have been removed.';

/**
 * `/v1/status-pages/{statusPageId}/subscriptions`, and the public links subscribers follow
 * (`/status/{url}/subscriptions/confirm|unsubscribe?token=…`, no API key, small HTML pages).
 */
export function statusPageSubscriptionsRoutes(app: Api, { statusPageSubscriptions: subs }: ApiContext): void {
  app.get('/v1/status-pages/:statusPageId/subscriptions', {
    schema: {
      operationId: 'listStatusPageSubscriptions', tags, summary: 'List the subscribers of a status page',
      description: 'Every subscriber, oldest first (unpaginated); never their tokens or webhook secrets.',
      params: StatusPageParams, response: responses({ 200: ref('StatusPageSubscriptionList') }),
    },
  }, async (req) => subs.list(req.principal.accountId, req.params.statusPageId));

  app.post('/v1/status-pages/:statusPageId/subscriptions/bulk', {
    schema: {
      operationId: 'createStatusPageSubscriptions', tags, summary: 'Add subscribers to a status page', description: BULK,
      params: StatusPageParams, body: SubscriptionBulkBody, response: responses({ 201: ref('StatusPageSubscriptionBulkResult') }, 409),
    },
  }, async (req, reply) => reply.code(201).send(await subs.bulkCreate(req.principal.accountId, req.params.statusPageId, req.body)));

  app.delete('/v1/status-pages/:statusPageId/subscriptions/:subscriptionId', {
    schema: {
      operationId: 'deleteStatusPageSubscription', tags, summary: 'Remove a subscriber of a status page',
      params: StatusPageSubscriptionParams, response: responses({ 204: NO_CONTENT }),
    },
  }, async (req, reply) => {
    await subs.delete(req.principal.accountId, req.params.statusPageId, req.params.subscriptionId);
    return reply.code(204).send();
  });

  // The links are pages for people, not API operations: left out of the document. Their own scope
  // reads the form bodies an unsubscribe POST carries (RFC 8058) without other routes accepting them.
  void app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    scope.addContentTypeParser(['application/x-www-form-urlencoded', 'multipart/form-data'], { parseAs: 'string', bodyLimit: 4096 }, (_req, body, done) => done(null, body));
    const link = { hide: true, params: SubscriberLinkParams, querystring: SubscriberLinkQuery };

    scope.get('/status/:url/subscriptions/confirm', { schema: link, config: { public: true } }, async (req, reply) => {
      const done = await subs.confirm(req.params.url, req.query.token);
      if (!done) return sendPage(reply, 404, 'Link not valid', UNKNOWN_LINK);
      return sendPage(reply, 200, 'Subscription confirmed', done.outcome === 'CONFIRMED'
        ? `You will now receive the updates of ${done.pageName}.`
        : `This subscription to ${done.pageName} was confirmed already.`);
    });

    // Opening the link only asks: mail scanners open links, and unsubscribing is a POST (RFC 8058).
    scope.get('/status/:url/subscriptions/unsubscribe', { schema: link, config: { public: true } }, async (req, reply) => {
      const found = await subs.describeUnsubscribe(req.params.url, req.query.token);
      if (!found) return sendPage(reply, 404, 'Link not valid', UNKNOWN_LINK);
      return sendPage(reply, 200, `Unsubscribe from ${found.pageName}?`, `Press the button to stop sending the updates of ${found.pageName} to ${found.address}.`, {
        action: `?token=${encodeURIComponent(req.query.token)}`, button: 'Unsubscribe',
      });
    });

    scope.post('/status/:url/subscriptions/unsubscribe', { schema: link, config: { public: true } }, async (req, reply) => {
      const done = await subs.unsubscribe(req.params.url, req.query.token);
      if (!done) return sendPage(reply, 404, 'Link not valid', UNKNOWN_LINK);
      return sendPage(reply, 200, 'Unsubscribed', `You will no longer receive the updates of ${done.pageName}.`);
    });
  });
}
