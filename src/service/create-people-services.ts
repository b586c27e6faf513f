import type { OidcSettings } from '../config.js';
import type { EventBus } from '../events/event-bus.js';
import type { Store } from '../store/create-store.js';
import { escapeHtml } from '../domain/status-page-subscription-messages.js';
import { createMemberService, type SendPersonMail } from './member-service.js';
import { createOidcSignInService } from './oidc-sign-in-service.js';
import { createPersonService } from './person-service.js';
import { createSessionService } from './session-service.js';
import { smtpSendMails } from './status-page-subscription-mailer.js';

/** Options of createPeopleServices. */
export interface PeopleServicesOptions {
  store: Store;
  bus: EventBus;
  publicUrl: string;
  /** SMTP for invitations and reset links; absent: links are answered to admins only. */
  smtp?: { smtpUrl: string; smtpFrom: string; timeoutMs: number };
  logger?: { info(details: object, message: string): void; warn(details: object, message: string): void };
  /** Single sign-on (LOOKOUT_OIDC_*); absent: none. Its provider is looked up in the background; close() stops that. */
  oidc?: OidcSettings;
}

/** Mails to a person over SMTP, as plain text (and the same text as HTML). */
export function smtpPersonMail(smtp: { smtpUrl: string; smtpFrom: string; timeoutMs: number }): SendPersonMail {
  const send = smtpSendMails(smtp);
  return async (mail) => {
    const [outcome] = await send([{ ...mail, html: `<pre style="font-family:sans-serif;white-space:pre-wrap">${escapeHtml(mail.text)}</pre>`, headers: {} }]);
    return outcome?.ok === true;
  };
}

/** The services of people: sessions, members and invitations, and each person's own sign-in. */
export function createPeopleServices({ store, bus, publicUrl, smtp, logger, oidc }: PeopleServicesOptions) {
  const sendMail = smtp ? smtpPersonMail(smtp) : undefined;
  const sessions = createSessionService({ store, bus });
  const quiet = { info() {}, warn() {} };
  return {
    sessions,
    sso: oidc ? createOidcSignInService({ settings: oidc, publicUrl, store, bus, sessions, logger: logger ?? quiet }) : undefined,
    members: createMemberService({ store, bus, sessions, publicUrl, sendMail }),
    people: createPersonService({ store, bus, publicUrl, sendMail, logger }),
  };
}
export type PeopleServices = ReturnType<typeof createPeopleServices>;
