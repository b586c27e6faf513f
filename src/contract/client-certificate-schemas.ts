import Type from 'typebox';
import { Nullable, PageQuery } from './common.js';

const DateTime = Type.String({ format: 'date-time' });

export const ClientCertificateId = Type.String({ format: 'uuid' });
export const ClientCertificateParams = Type.Object({ id: ClientCertificateId }, { additionalProperties: false });
export const ClientCertificateListQuery = Type.Object(PageQuery, { additionalProperties: false });

/** Body of `POST /v1/client-certificates` (the field names of the public API). */
export const ClientCertificateCreate = Type.Object(
  {
    host: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Host the certificate is presented to, without scheme, port or path: api.example.com, an IP address, or *.example.com for every name below example.com',
    }),
    cert: Type.String({ minLength: 1, maxLength: 65_536, description: 'The client certificate, PEM; intermediates may follow it' }),
    key: Type.String({ minLength: 1, maxLength: 65_536, description: 'Its private key, PEM, possibly encrypted. Write-only: never read back' }),
    passphrase: Type.Optional(Nullable(Type.String({ maxLength: 1024, description: 'Passphrase of an encrypted key. Write-only: never read back' }))),
    ca: Type.Optional(Nullable(Type.String({ maxLength: 262_144, description: 'CA certificates (PEM) trusted for the server besides the usual roots' }))),
  },
  { additionalProperties: false },
);

/** A client certificate as answers show it: never its key or passphrase. */
export const ClientCertificateView = Type.Object({
  id: ClientCertificateId,
  host: Type.String(),
  cert: Type.String(),
  ca: Nullable(Type.String()),
  created_at: DateTime,
  updated_at: Nullable(DateTime),
});
