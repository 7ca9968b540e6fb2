// The heading of a view, which takes the focus when the user moves to the view (so a screen reader says where it is).
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { useStores } from '../stores/stores.ts';

export function ViewHeader({
  title,
  children,
}: {
  title: string;
  children?: ComponentChildren;
}): JSX.Element {
  const { navigation } = useStores();
  const heading = useRef<HTMLHeadingElement>(null);
  const moves = navigation.moves.value;
  useEffect(() => {
    if (moves > 0) heading.current?.focus();
  }, [moves]);
  return (
    <header class="view-header">
      <h1 tabIndex={-1} ref={heading}>
        {title}
      </h1>
      {children !== undefined && <div class="view-actions">{children}</div>}
    </header>
  );
}
