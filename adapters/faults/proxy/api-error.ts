// The fault proxy's one error class. It carries the HTTP status and renders as Toxiproxy's error
// body `{ "error": message, "status": code }`, so clients written for Toxiproxy read it unchanged.

export class ApiError extends Error {
  constructor(
    override readonly message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toJSON(): { error: string; status: number } {
    return { error: this.message, status: this.status };
  }

  static badRequest(detail: string): ApiError {
    return new ApiError(`bad request body: ${detail}`, 400);
  }
  static missingField(field: string): ApiError {
    return new ApiError(`missing required field: ${field}`, 400);
  }
  /** 404: no proxy, or no toxic of the proxy, by the name in the path. */
  static notFound(what: 'proxy' | 'toxic'): ApiError {
    return new ApiError(`${what} not found`, 404);
  }
  /** 409: a proxy, or a toxic of the proxy, by that name already exists. */
  static alreadyExists(what: 'proxy' | 'toxic'): ApiError {
    return new ApiError(`${what} already exists`, 409);
  }
  static invalidStream(): ApiError {
    return new ApiError('stream was invalid, can be either upstream or downstream', 400);
  }
  static invalidToxicType(): ApiError {
    return new ApiError('invalid toxic type', 400);
  }
}
