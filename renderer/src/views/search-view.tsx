// Search: the device's text search with the matched text highlighted, and photos by date range (desktop-app.md §2.6).
import { Image, Search } from 'lucide-preact';
import type { JSX } from 'preact';
import { useId, useState } from 'preact/hooks';
import { BusyButton } from '../components/busy-button.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { PhotoResults } from '../components/photo-results.tsx';
import { TextResults } from '../components/text-results.tsx';
import { useAction } from '../components/use-action.ts';
import { ViewHeader } from '../components/view-header.tsx';
import { useStores } from '../stores/stores.ts';

export function SearchView(): JSX.Element {
  const [mode, setMode] = useState<'text' | 'photos'>('text');
  return (
    <div class="view">
      <ViewHeader title="Search" />
      <div class="segmented" role="group" aria-label="Search for">
        <button type="button" aria-pressed={mode === 'text'} onClick={() => setMode('text')}>
          <Search />
          Files
        </button>
        <button type="button" aria-pressed={mode === 'photos'} onClick={() => setMode('photos')}>
          <Image />
          Photos by date
        </button>
      </div>
      {mode === 'text' ? <TextSearch /> : <PhotoSearch />}
    </div>
  );
}

function TextSearch(): JSX.Element {
  const { search } = useStores();
  const [query, setQuery] = useState(search.query.value);
  const queryId = useId();
  const find = useAction((text: string) => search.searchText(text));
  const more = useAction(() => search.nextPage());
  const matches = search.matches.value;
  return (
    <>
      <form
        class="search-form"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          if (query.trim() !== '') void find.run(query.trim());
        }}
      >
        <label for={queryId}>Search the device</label>
        <div class="search-row">
          <input
            id={queryId}
            type="search"
            name="query"
            value={query}
            onInput={(event) => setQuery(event.currentTarget.value)}
          />
          <BusyButton type="submit" class="button primary" busy={find.busy} icon={Search}>
            Search
          </BusyButton>
        </div>
      </form>
      <ErrorNote error={find.error ?? more.error} />
      <p class="visually-hidden" role="status">
        {matches === null || find.busy ? '' : `${matches.length} matches`}
      </p>
      {matches !== null && matches.length === 0 && (
        <p class="card empty">Nothing matches “{search.query.value}”.</p>
      )}
      {matches !== null && matches.length > 0 && <TextResults matches={matches} />}
      {search.pageToken.value !== '' && matches !== null && (
        <div class="actions">
          <BusyButton busy={more.busy} onClick={() => void more.run()}>
            More matches
          </BusyButton>
        </div>
      )}
    </>
  );
}

function PhotoSearch(): JSX.Element {
  const { search } = useStores();
  const [range, setRange] = useState(search.photoRange.value);
  const ids = { from: useId(), to: useId() };
  const find = useAction(() => search.searchPhotos(range.from, range.to));
  const photos = search.photos.value;
  return (
    <>
      <form
        class="search-form"
        onSubmit={(event) => {
          event.preventDefault();
          void find.run();
        }}
      >
        <div class="date-range">
          <div class="field">
            <label for={ids.from}>From</label>
            <input
              id={ids.from}
              type="date"
              required
              value={range.from}
              onInput={(event) => setRange({ ...range, from: event.currentTarget.value })}
            />
          </div>
          <div class="field">
            <label for={ids.to}>To</label>
            <input
              id={ids.to}
              type="date"
              required
              value={range.to}
              onInput={(event) => setRange({ ...range, to: event.currentTarget.value })}
            />
          </div>
          <BusyButton type="submit" class="button primary" busy={find.busy} icon={Image}>
            Find photos
          </BusyButton>
        </div>
      </form>
      <ErrorNote error={find.error} />
      <p class="visually-hidden" role="status">
        {photos === null || find.busy ? '' : `${photos.length} photos`}
      </p>
      {photos !== null && photos.length === 0 && <p class="card empty">No photos in these days.</p>}
      {photos !== null && photos.length > 0 && <PhotoResults photos={photos} />}
      {search.morePhotos.value && (
        <p class="muted">More photos were taken in these days: narrow the range to see them.</p>
      )}
    </>
  );
}
