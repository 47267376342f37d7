// The default theme with the portal's colours (custom.css).
import DefaultTheme from 'vitepress/theme';
import './custom.css';

export default DefaultTheme;
