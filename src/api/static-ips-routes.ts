import type { IpFamily } from '../domain/source-addresses.js';
import { createStaticIpService } from '../service/static-ip-service.js';
import type { Api, ApiContext } from './api-context.js';

const tags = ['Network'];
const SOURCE = 'LOOKOUT_STATIC_IPS / LOOKOUT_STATIC_IPV6S when set, otherwise this machine\'s non-internal interface addresses.';

/** Source addresses of check runs, as JSON, as text and per region (every region runs on this machine). */
export function staticIpsRoutes(app: Api, { config }: ApiContext): void {
  const staticIps = createStaticIpService({ staticIps: config.staticIps, staticIpv6s: config.staticIpv6s });
  const routes: [string, IpFamily][] = [['static-ips', 'IPv4'], ['static-ipv6s', 'IPv6']];
  for (const [path, family] of routes) {
    app.get(`/v1/${path}`, { schema: { tags, summary: `Source ${family} addresses of check runs`, description: SOURCE } }, async () =>
      staticIps.list(family));
    app.get(`/v1/${path}.txt`, {
      schema: { tags, summary: `Source ${family} addresses of check runs, one per line (text/plain)`, description: SOURCE },
    }, async (_req, reply) => reply.type('text/plain; charset=utf-8').send(staticIps.text(family)));
    app.get(`/v1/${path}-by-region`, {
      schema: { tags, summary: `Source ${family} addresses per location`, description: `${SOURCE} Every location maps to the same list.` },
    }, async () => staticIps.byRegion(family));
  }
}
