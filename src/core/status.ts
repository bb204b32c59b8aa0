// HTTP reason phrases, once, for the problem titles, the diagrams and the HAR export.

export const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}

/**
 * The reason phrase of a status, or '' for one the service never answers.
 * @example statusText(422) // 'Unprocessable Content'
 */
export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? ''
}
