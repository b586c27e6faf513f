// REST's credential shapes the GraphQL layer reads: client certificates and trigger tokens.
/** A client certificate as REST answers it (GET/POST /v1/client-certificates): never its key or passphrase. */
export interface RestClientCertificate {
  id: string;
  host: string;
  cert: string;
  ca: string | null;
  created_at: string;
  updated_at: string | null;
}

/** A trigger token as REST answers it: a check's (`checkId`) or a group's (`groupId`). */
export interface RestTriggerToken {
  id: number;
  checkId?: string;
  groupId?: number;
  token: string;
  url: string;
  called_at: string | null;
  created_at: string;
  updated_at: string | null;
}
