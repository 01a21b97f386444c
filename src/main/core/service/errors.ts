/**
 * Typed errors of the service client. Messages are for people (what happened, what to
 * do) and carry no URL; `url` holds the request with the key redacted, for logs. No
 * error keeps the underlying exception as `cause`, since a fetch error's text can carry
 * the request URL with its key.
 */
export type ServiceErrorKind = 'auth' | 'rate-limited' | 'server' | 'network' | 'bad-request' | 'bad-response' | 'service-status' | 'cancelled';

export abstract class ServiceError extends Error {
  abstract readonly kind: ServiceErrorKind;
  /** Whether the same request may succeed if sent again later. */
  abstract readonly retryable: boolean;
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
  /** A plain object that can cross IPC or be logged: no stack, no secrets. */
  toJSON(): { kind: ServiceErrorKind; message: string; retryable: boolean } {
    return { kind: this.kind, message: this.message, retryable: this.retryable };
  }
}

export class AuthError extends ServiceError {
  readonly kind = 'auth';
  readonly retryable = false;
  constructor(
    url: string,
    readonly status: number,
    serviceMessage: string,
  ) {
    super(
      `The service refused the access key (HTTP ${status}${serviceMessage ? `: ${serviceMessage}` : ''}). Check the key: in Settings in the app; from the command line with folioscope key set, or FOLIOSCOPE_ACCESS_KEY if that is where it comes from.`,
      url,
    );
  }
}

export class RateLimitedError extends ServiceError {
  readonly kind = 'rate-limited';
  readonly retryable = true;
  constructor(
    url: string,
    readonly retryAfterMs: number | null,
    /** Set when the client stopped asking: the service had refused every request for this long. */
    readonly gaveUpAfterMs: number | null = null,
  ) {
    super(
      gaveUpAfterMs !== null
        ? `The service refused every request for its rate limit for ${formatWait(gaveUpAfterMs)}, waiting longer after each refusal: Folioscope stopped asking it for now. Try again later.`
        : `The service is rate-limiting requests${retryAfterMs !== null ? `; it asks to wait ${Math.ceil(retryAfterMs / 1000)} s` : ''}. Try again later.`,
      url,
    );
  }
}

/** A wait for people: whole seconds up to two minutes, else minutes. */
export const formatWait = (ms: number): string => (ms < 120_000 ? `${Math.ceil(ms / 1000)} s` : `${Math.round(ms / 60_000)} minutes`);

export class ServerError extends ServiceError {
  readonly kind = 'server';
  readonly retryable = true;
  constructor(
    url: string,
    readonly status: number,
    serviceMessage: string,
  ) {
    super(`The service failed with HTTP ${status}${serviceMessage ? `: ${serviceMessage}` : ''}. Try again later.`, url);
  }
}

export class NetworkError extends ServiceError {
  readonly kind = 'network';
  readonly retryable = true;
  constructor(
    url: string,
    readonly timedOut: boolean,
    detail: string,
  ) {
    super(
      timedOut
        ? `The service did not answer in time. Check your connection and try again.`
        : `Could not reach the service (${detail}). Check your connection and the base URL.`,
      url,
    );
  }
}

/** 400 and other client errors: the request itself was wrong (a bad address, a date out of range). */
export class RequestError extends ServiceError {
  readonly kind = 'bad-request';
  readonly retryable = false;
  constructor(
    url: string,
    readonly status: number,
    serviceMessage: string,
    readonly parameter: string | null,
  ) {
    super(`The service rejected the request (HTTP ${status}): ${serviceMessage || 'no reason given'}`, url);
  }
}

export class BadResponseError extends ServiceError {
  readonly kind = 'bad-response';
  readonly retryable = false;
  constructor(
    url: string,
    readonly path: string,
    problem: string,
    /** The body is not JSON at all: cut short or garbled on the way, so worth asking again (the client does, as for a network failure). */
    readonly notJson = false,
  ) {
    super(`The service sent a response Folioscope cannot read: ${path ? `${path}: ` : ''}${problem}`, url);
  }
}

/**
 * A successful body larger than its endpoint's cap (`maxBodyBytes` in endpoints.ts), announced
 * so by its Content-Length or counted while it arrived (decoded: a gzip bomb counts what it
 * expands to): it was not read further, the connection was dropped, and nothing of it is kept.
 * A service sending it is misbehaving; asking again would only fetch it again, so it is not
 * retried. A bad response to the renderer (kind), with its own message.
 */
export class ResponseTooLargeError extends ServiceError {
  readonly kind = 'bad-response';
  readonly retryable = false;
  constructor(
    url: string,
    readonly limitBytes: number,
    /** The Content-Length the service announced, when that alone refused it. */
    readonly announcedBytes: number | null,
  ) {
    super(
      `The service sent a response larger than ${formatMb(limitBytes)} (${announcedBytes !== null ? `it announced ${formatMb(announcedBytes)}` : 'counted as it arrived'}), ` +
        `far beyond any real answer to this request, so Folioscope did not read it and kept nothing of it. ` +
        `The service is misbehaving: try again later, and tell its operator if this recurs.`,
      url,
    );
  }
}

const formatMb = (bytes: number): string => `${(bytes / 2 ** 20).toLocaleString('en-US', { maximumFractionDigits: bytes < 2 ** 20 ? 2 : 0 })} MB`;

export class ServiceStatusError extends ServiceError {
  readonly kind = 'service-status';
  readonly retryable = false;
  constructor(
    url: string,
    readonly serviceStatus: string,
    serviceMessage: string,
  ) {
    super(`The service answered with status "${serviceStatus}": ${serviceMessage || 'no message'}`, url);
  }
}

export class CancelledError extends ServiceError {
  readonly kind = 'cancelled';
  readonly retryable = false;
  constructor(url: string) {
    super(`Cancelled.`, url);
  }
}
