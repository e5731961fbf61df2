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
  static proxyNotFound(): ApiError {
    return new ApiError('proxy not found', 404);
  }
  static proxyAlreadyExists(): ApiError {
    return new ApiError('proxy already exists', 409);
  }
  static invalidStream(): ApiError {
    return new ApiError('stream was invalid, can be either upstream or downstream', 400);
  }
  static invalidToxicType(): ApiError {
    return new ApiError('invalid toxic type', 400);
  }
  static toxicAlreadyExists(): ApiError {
    return new ApiError('toxic already exists', 409);
  }
  static toxicNotFound(): ApiError {
    return new ApiError('toxic not found', 404);
  }
}
