// Files dropped on the window become a share link where the host can tell their paths (the desktop app); in a browser the drop says to use the picker.
import { Share2 } from 'lucide-preact';
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { useStores } from '../stores/stores.ts';

function carriesFiles(event: DragEvent): boolean {
  return event.dataTransfer?.types.includes('Files') ?? false;
}

/** Calls `onDrop` with the local paths of the dropped files, or an empty list when the host cannot tell them. */
export function DropToShare({ onDrop }: { onDrop: (paths: string[]) => void }): JSX.Element | null {
  const { core } = useStores();
  const [over, setOver] = useState(false);
  useEffect(() => {
    // Counting enters and leaves: every child element the pointer crosses fires both.
    let depth = 0;
    const enter = (event: DragEvent): void => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth += 1;
      setOver(true);
    };
    const overWindow = (event: DragEvent): void => {
      if (!carriesFiles(event)) return;
      // Without this the browser opens the dropped file in place of the window.
      event.preventDefault();
      if (event.dataTransfer !== null) event.dataTransfer.dropEffect = 'link';
    };
    const leave = (event: DragEvent): void => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const drop = (event: DragEvent): void => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth = 0;
      setOver(false);
      const files = [...(event.dataTransfer?.files ?? [])];
      const paths = files
        .map((file) => core.pathForFile(file))
        .filter((path) => path !== null && path !== '');
      onDrop(paths as string[]);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', overWindow);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', overWindow);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [core, onDrop]);
  if (!over) return null;
  return (
    <div class="drop-overlay" aria-hidden="true">
      <Share2 />
      <p>{core.canResolveDroppedFiles ? 'Drop to make a share link' : 'Drop works in the desktop app'}</p>
    </div>
  );
}
