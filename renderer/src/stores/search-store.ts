// The device's text and photo searches, kept while the user looks at other views.
import { signal } from '@preact/signals';
import type { PhotoView, SearchMatchView } from '../../../common/contract.ts';
import type { Core } from '../bridge.ts';

const PAGE = 50;
const PHOTOS = 200;

export class SearchStore {
  readonly query = signal('');
  /** Null before the first search. */
  readonly matches = signal<SearchMatchView[] | null>(null);
  /** Empty when there is no next page. */
  readonly pageToken = signal('');
  readonly photoRange = signal({ from: '', to: '' });
  readonly photos = signal<PhotoView[] | null>(null);
  readonly morePhotos = signal(false);
  readonly #core: Core;

  constructor(core: Core) {
    this.#core = core;
  }

  async searchText(query: string): Promise<void> {
    this.query.value = query;
    const page = await this.#core.invoke('search:text', { query, limit: PAGE, pageToken: null });
    this.matches.value = page.matches;
    this.pageToken.value = page.pageToken;
  }

  async nextPage(): Promise<void> {
    const page = await this.#core.invoke('search:text', {
      query: this.query.value,
      limit: PAGE,
      pageToken: this.pageToken.value,
    });
    const known = new Set((this.matches.value ?? []).map((match) => match.id));
    this.matches.value = [
      ...(this.matches.value ?? []),
      ...page.matches.filter((match) => !known.has(match.id)),
    ];
    this.pageToken.value = page.pageToken;
  }

  /** `from`/`to` as `YYYY-MM-DD`: whole days on this computer's clock (the contract's rule). */
  async searchPhotos(from: string, to: string): Promise<void> {
    this.photoRange.value = { from, to };
    const answer = await this.#core.invoke('search:photos', { from, to, limit: PHOTOS });
    this.photos.value = answer.photos;
    this.morePhotos.value = answer.more;
  }
}
