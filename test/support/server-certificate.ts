import { generate } from 'selfsigned';
import type { Pem, TestCa } from './mtls-target.js';

const HOUR_MS = 3_600_000;
const YEAR_MS = 365 * 24 * HOUR_MS;

/**
 * A server certificate of `ca` for `localhost`, 127.0.0.1 and ::1, valid for a year from an hour
 * ago (so "days until expiry" assertions of 30 and more hold).
 */
export async function issueServerCertificate(ca: TestCa): Promise<Pem> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec', algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - HOUR_MS), notAfterDate: new Date(Date.now() + YEAR_MS),
    ca: { key: ca.key, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
