import type { DnsRecord } from './observation.js';

/**
 * One resource record as decoded by `dns-packet` turned into a DnsRecord whose `data` reads the
 * way dig prints it: names fully qualified with the trailing dot, `10 mail.example.com.` for MX,
 * quoted and escaped character strings for TXT, the seven SOA fields in order, and the RFC 3597
 * generic form `\# <length> <hex>` for record types dns-packet leaves as raw bytes.
 * Never throws, whatever the decoded shape.
 */
export function toDnsRecord(answer: unknown): DnsRecord {
  const a = (answer ?? {}) as Record<string, unknown>;
  const type = typeof a.type === 'string' ? a.type : 'UNKNOWN';
  return {
    name: fqdn(a.name),
    type,
    ttl: typeof a.ttl === 'number' && Number.isFinite(a.ttl) ? a.ttl : 0,
    data: renderData(type, a.data),
  };
}

function renderData(type: string, data: unknown): string {
  const d = (data ?? {}) as Record<string, unknown>;
  switch (type) {
    case 'A':
    case 'AAAA':
      return typeof data === 'string' ? data : generic(data);
    case 'CNAME':
    case 'NS':
    case 'PTR':
    case 'DNAME':
      return typeof data === 'string' ? fqdn(data) : generic(data);
    case 'MX':
      return `${num(d.preference)} ${fqdn(d.exchange)}`;
    case 'TXT':
      return (Array.isArray(data) ? data : [data]).map(characterString).join(' ');
    case 'SOA':
      return [fqdn(d.mname), fqdn(d.rname), num(d.serial), num(d.refresh), num(d.retry), num(d.expire), num(d.minimum)].join(' ');
    case 'SRV':
      return `${num(d.priority)} ${num(d.weight)} ${num(d.port)} ${fqdn(d.target)}`;
    case 'CAA':
      return `${d.issuerCritical === true ? 128 : num(d.flags)} ${text(d.tag)} ${characterString(d.value)}`;
    case 'HINFO':
      return `${characterString(d.cpu)} ${characterString(d.os)}`;
    default:
      return generic(data);
  }
}

function fqdn(name: unknown): string {
  if (typeof name !== 'string' || name === '' || name === '.') return '.';
  return name.endsWith('.') ? name : `${name}.`;
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** A DNS character-string as dig prints it: quoted, `"` and `\` escaped, other bytes as \DDD. */
function characterString(value: unknown): string {
  const bytes = Buffer.isBuffer(value) ? value : Buffer.from(text(value), 'utf8');
  let out = '"';
  for (const b of bytes) {
    if (b === 0x22 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b >= 0x20 && b <= 0x7e) out += String.fromCharCode(b);
    else out += `\\${String(b).padStart(3, '0')}`;
  }
  return `${out}"`;
}

/** A value as text; '' for nothing and for values that cannot be turned into text. */
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value == null) return '';
  try {
    return String(value);
  } catch {
    return '';
  }
}

/** RFC 3597 for raw bytes; JSON (bytes as base64) for structured data dig would print field by field. */
function generic(data: unknown): string {
  if (Buffer.isBuffer(data)) return `\\# ${data.length}${data.length > 0 ? ` ${data.toString('hex')}` : ''}`;
  if (typeof data === 'string') return data;
  try {
    return JSON.stringify(data, (_key, v: unknown) => {
      if (v && typeof v === 'object' && (v as { type?: unknown }).type === 'Buffer' && Array.isArray((v as { data?: unknown }).data)) {
        return Buffer.from((v as { data: number[] }).data).toString('base64');
      }
      return typeof v === 'bigint' ? v.toString() : v;
    }) ?? '';
  } catch {
    return '';
  }
}
