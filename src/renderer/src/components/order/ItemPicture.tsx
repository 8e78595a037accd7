/** An item's first picture; offline or missing, a tile with its initial instead of a broken image. */
import { useState } from 'react';
import type { Item } from '../../../../shared/protocol/schemas';
import { printableText } from '../../../../shared/protocol/orderId';

export function ItemPicture({ item }: { item: Item }) {
  const src = item.images?.find((i) => i.image.startsWith('https://'))?.image;
  const [broken, setBroken] = useState(false);
  if (!src || broken)
    return (
      <div className="item-picture item-picture-none" aria-hidden="true">
        {printableText(item.name ?? item.itemId).charAt(0).toUpperCase()}
      </div>
    );
  return <img className="item-picture" src={src} alt="" loading="lazy" onError={() => setBroken(true)} />;
}
