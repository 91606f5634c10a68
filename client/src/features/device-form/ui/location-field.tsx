import { useUnit } from 'effector-react';
import { useId } from 'react';
import { Button, FormTextField, Spinner } from '../../../shared/ui';
import { $coordinateText, $form, $pinName, coordinateTyped, placeOnMapClicked } from '../model';
import styles from './device-form.module.css';

/**
 * Where the device really is (issue 42): the suggestions know towns only, so a street address found
 * nothing and a device landed at the city centre. Here the person drops the pin on the map and drags it
 * ('Place on map' / 'Correct on map'), or types the coordinates; the pin is named by the nearest town.
 */
export function LocationField() {
  const [form, typed, pin] = useUnit([$form, $coordinateText, $pinName]);
  const [type, place] = useUnit([coordinateTyped, placeOnMapClicked]);
  const statusId = useId();
  const located = form.location !== null;
  const name =
    pin.status === 'loading' ? (
      <>
        <Spinner size={14} /> Finding the nearest town…
      </>
    ) : !located ? (
      'No pin yet: place it on the map, or type its latitude and longitude.'
    ) : pin.status === 'failed' ? (
      'Pin placed. The nearest town could not be looked up right now.'
    ) : pin.text ? (
      `Pin near ${pin.text}`
    ) : pin.status === 'ready' ? (
      'Pin placed, with no town of the US or Australia within 100 km.'
    ) : (
      'Pin placed.'
    );
  return (
    <fieldset className={[styles.full, styles.location].join(' ')} aria-describedby={statusId}>
      <legend className={styles.legend}>Place on the map</legend>
      <div className={styles.coordinates}>
        <FormTextField
          label="Latitude"
          inputMode="decimal"
          autoComplete="off"
          placeholder="29.92130"
          value={typed.lat}
          onChange={(e) => type({ axis: 'lat', value: e.target.value })}
        />
        <FormTextField
          label="Longitude"
          inputMode="decimal"
          autoComplete="off"
          placeholder="-90.10360"
          value={typed.lng}
          onChange={(e) => type({ axis: 'lng', value: e.target.value })}
        />
        <Button variant="secondary" className={styles.placeButton} onClick={() => place()}>
          {located ? 'Correct on map' : 'Place on map'}
        </Button>
      </div>
      <p id={statusId} className={styles.hint} role="status" data-testid="pin-name">
        {name}
      </p>
    </fieldset>
  );
}
