// Errors of a search that was asked wrongly: nothing was sent to the device (the CLI answers them as usage errors).
import { MchError } from '../../common/errors.ts';

export type SearchErrorCode =
  'SEARCH_EMPTY_QUERY' | 'SEARCH_BAD_LIMIT' | 'SEARCH_BAD_DATE' | 'SEARCH_DATES_REVERSED';

const TITLES: Record<SearchErrorCode, string> = {
  SEARCH_EMPTY_QUERY: 'Nothing to search for',
  SEARCH_BAD_LIMIT: 'Bad limit',
  SEARCH_BAD_DATE: 'Bad date',
  SEARCH_DATES_REVERSED: 'Dates reversed',
};

export class SearchError extends MchError {
  declare readonly code: SearchErrorCode;

  constructor(code: SearchErrorCode, message: string) {
    super(code, TITLES[code], message);
  }
}
