import styles from './panel-kit.module.css';

/**
 * The dashboard panel's classes by name (subView, toolbar, field, fieldLabel, searchField, searchIcon, input,
 * select, addButton, cards, countyCard, countyName, counts, hint, empty, error, sectionTitle ...), for the
 * tabs that draw its fields and cards in their own markup. A stylesheet uses them with
 * `composes: x from '.../shared/ui/panel-kit/panel-kit.module.css'`.
 */
export const panelKit = styles;
