package llm

import (
	"net/url"
	"regexp"
	"strings"
)

// azurePath is the path of a deployment's chat completions as the Azure
// portal shows it.
var azurePath = regexp.MustCompile(`^/openai/deployments/([^/]+)(?:/chat/completions)?/?$`)

// Resolved is the configuration as requests use it: a URL copied from the
// Azure portal (https://NAME.openai.azure.com/openai/deployments/D/chat/completions?api-version=V)
// becomes the resource endpoint with AzureDeployment D and AzureAPIVersion
// V, unless those are set already, so the key is sent as api-key.
func (c Config) Resolved() Config {
	dep, ver, base, ok := c.azurePortal()
	if !ok {
		return c
	}
	if c.AzureDeployment == "" {
		c.AzureDeployment = dep
	}
	if c.AzureAPIVersion == "" {
		c.AzureAPIVersion = ver
	}
	c.URL = base
	return c
}

// AzureRecognised says what was read from an Azure portal URL ("" when the
// URL is not one).
func (c Config) AzureRecognised() string {
	dep, ver, _, ok := c.azurePortal()
	if !ok {
		return ""
	}
	s := "Azure portal URL: deployment " + dep
	if ver != "" {
		s += ", api-version " + ver
	}
	return s + ", key sent as api-key"
}

// azurePortal splits an OCR_LLM_URL of the Azure portal's form.
func (c Config) azurePortal() (dep, ver, base string, ok bool) {
	if c.URL == "" {
		return "", "", "", false
	}
	u, err := url.Parse(strings.TrimSpace(c.URL))
	if err != nil || u.Host == "" {
		return "", "", "", false
	}
	m := azurePath.FindStringSubmatch(u.Path)
	if m == nil {
		return "", "", "", false
	}
	dep, err = url.PathUnescape(m[1])
	if err != nil || dep == "" {
		return "", "", "", false
	}
	return dep, u.Query().Get("api-version"), u.Scheme + "://" + u.Host, true
}
