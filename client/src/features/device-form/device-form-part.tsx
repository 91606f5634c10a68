import { useUnit } from 'effector-react';
import { $deviceFormAsk, addDeviceOpened, editDeviceOpened } from './entry';
import { firstShowing } from '../../shared/ui';
import { DeviceFormDialog } from './ui/device-form-dialog';

/** The opening that loaded this chunk is answered once, by the part's first showing (later ones reach the model directly). */
const useFirstShowing = firstShowing();

/**
 * The device form's chunk (its model comes with its dialog): shown by the map page from the first time a
 * form is asked for. The form asked for before its model existed is opened here, once.
 */
export default function DeviceFormPart() {
  const [ask, openAdd, openEdit] = useUnit([$deviceFormAsk, addDeviceOpened, editDeviceOpened]);
  // The form asked for before the load; later asks go to the model, which is loaded by then.
  useFirstShowing(() => (ask.serial === null ? openAdd() : openEdit(ask.serial)));
  return <DeviceFormDialog />;
}
