import { useUnit } from 'effector-react';
import { useEffect } from 'react';
import { $deviceFormAsk, addDeviceOpened, editDeviceOpened } from './entry';
import { DeviceFormDialog } from './ui/device-form-dialog';

/** The opening that loaded this chunk is answered once, by the part's first showing (later ones reach the model directly). */
let firstAskAnswered = false;

/**
 * The device form's chunk (its model comes with its dialog): shown by the map page from the first time a
 * form is asked for. The form asked for before its model existed is opened here, once.
 */
export default function DeviceFormPart() {
  const [ask, openAdd, openEdit] = useUnit([$deviceFormAsk, addDeviceOpened, editDeviceOpened]);
  useEffect(() => {
    if (firstAskAnswered) return;
    firstAskAnswered = true;
    if (ask.serial === null) openAdd();
    else openEdit(ask.serial);
    // The first showing only: later asks go to the model, which is loaded by then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return <DeviceFormDialog />;
}
