import type { IpFamily } from '../domain/source-addresses.js';
import { createStaticIpService } from '../service/static-ip-service.js';
import type { Api, ApiContext } from './api-context.js';
import { ref } from '../contract/response-shape.js';
import { nonJson, responses } from '../contract/route-responses.js';

const tags = ['Network'];
const SOURCE = 'LOOKOUT_STATIC_IPS / LOOKOUT_STATIC_IPV6S when set, otherwise this machine\'s non-internal interface addresses.';

/** Source addresses of check runs, as JSON, as text and per region (every region runs on this machine). */
export function staticIpsRoutes(app: Api, { config }: ApiContext): void {
  const staticIps = createStaticIpService({ staticIps: config.staticIps, staticIpv6s: config.staticIpv6s });
  const routes: [string, IpFamily, string][] = [['static-ips', 'IPv4', 'StaticIps'], ['static-ipv6s', 'IPv6', 'StaticIpv6s']];
  for (const [path, family, name] of routes) {
    app.get(`/v1/${path}`, {
      schema: { operationId: `list${name}`, tags, summary: `Source ${family} addresses of check runs`, description: SOURCE, response: responses({ 200: ref('StaticIps') }) },
    }, async () =>
      staticIps.list(family));
    app.get(`/v1/${path}.txt`, {
      schema: {
        operationId: `list${name}AsText`, tags, summary: `Source ${family} addresses of check runs, one per line (text/plain)`, description: SOURCE,
        response: responses({ 200: nonJson('One address per line', ['text/plain']) }),
      },
    }, async (_req, reply) => reply.type('text/plain; charset=utf-8').send(staticIps.text(family)));
    app.get(`/v1/${path}-by-region`, {
      schema: {
        operationId: `list${name}ByRegion`, tags, summary: `Source ${family} addresses per location`, description: `${SOURCE} Every location maps to the same list.`,
        response: responses({ 200: ref('StaticIpsByRegion') }),
      },
    }, async () => staticIps.byRegion(family));
  }
}
